// Browser-safe: the import page lists them and writes them in the errors CSV.

/** The columns an import file may have (header names are matched trimmed and case-insensitively). */
export const IMPORT_COLUMNS = [
  'text',
  'accounts',
  'scheduled_at',
  'time_zone',
  'key',
  'thread_group',
  'part',
  'first_comment',
  'template',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

// Browser-safe: what the import page and the API answer share (lib/imports/, docs/publishing.md#import).

/** Where a row stands: in a preview (`new`), after the import (`created`), or either (`already_imported`, `invalid`). */
export type ImportRowStatus = 'new' | 'created' | 'already_imported' | 'invalid';

/** An earlier imported post: the row (and file) it came from and when. */
export type ImportedRef = { postId: string; row: number | null; fileName: string | null; importedAt: string };

export type ImportRowReport = {
  /** The row's number as a spreadsheet shows it: the header is row 1. */
  row: number;
  status: ImportRowStatus;
  errors?: string[];
  /** `invalid`: the row's cells as uploaded (by column), for the errors CSV. */
  cells?: Record<string, string>;
  /** The post this row created, or the one that already holds its key. */
  postId?: string;
  /** `already_imported`: the post imported earlier from this row's key. */
  alreadyImported?: ImportedRef;
  /** A new key whose content is close to an earlier imported row (same accounts and time, similar text): flagged, never deleted. */
  editedCopyOf?: ImportedRef;
  /**
   * A new key with so many imported rows at its accounts and time that the check stopped before finding one
   * alike: flagged "possible edited copy — check" rather than passed as plainly new.
   */
  editedCopyUnchecked?: true;
};

export type ImportCounts = {
  rows: number;
  /** Preview: rows that would create a post; result: rows that did. */
  new: number;
  alreadyImported: number;
  /** Of the new rows, those that look like an edited copy of an imported row (or could not all be compared). */
  editedCopies: number;
  invalid: number;
};

export type ImportPreview = {
  fileName: string;
  counts: ImportCounts;
  /** Posts to create (a thread's rows are one post): what the Import button's progress counts. */
  posts: number;
  rows: ImportRowReport[];
  ignoredColumns: string[];
};

export type ImportResult = {
  importId: string;
  fileName: string;
  counts: ImportCounts;
  rows: ImportRowReport[];
};

export function countRows(rows: readonly ImportRowReport[]): ImportCounts {
  const counts: ImportCounts = { rows: rows.length, new: 0, alreadyImported: 0, editedCopies: 0, invalid: 0 };
  for (const r of rows) {
    if (r.status === 'new' || r.status === 'created') counts.new++;
    else if (r.status === 'already_imported') counts.alreadyImported++;
    else counts.invalid++;
    if ((r.editedCopyOf || r.editedCopyUnchecked) && (r.status === 'new' || r.status === 'created'))
      counts.editedCopies++;
  }
  return counts;
}

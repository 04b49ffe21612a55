import { parse } from 'csv-parse';
import { IMPORT_COLUMNS, type ImportColumn } from './columns';

export const IMPORT_MAX_ROWS = 5000;
/** 5,000 rows of long posts fit easily; anything larger is refused before it is parsed (413). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

const REQUIRED: readonly ImportColumn[] = ['text', 'accounts', 'scheduled_at'];

export type CsvRow = {
  /** As a spreadsheet numbers it: the header is row 1, so the first data row is row 2. */
  row: number;
  cells: Record<ImportColumn, string>;
  /** The cells of the other columns, by their (normalised) names: a `template`'s variables. */
  variables?: Record<string, string>;
  /** The row has more cells than the header has columns. */
  extraCells: boolean;
};

export type BadFile = { ok: false; status: 400 | 413 | 422; title: string; detail: string };
export type ParsedCsv = { ok: true; rows: CsvRow[]; ignoredColumns: string[] } | BadFile;

const bad = (status: BadFile['status'], title: string, detail: string): BadFile => ({
  ok: false,
  status,
  title,
  detail,
});

/**
 * An import file → its rows, or why the file as a whole is refused (not UTF-8 text, not CSV, no header with the
 * required columns, more than 5,000 rows, larger than 5 MB). The parsing is csv-parse's (RFC 4180: quoted cells
 * with commas, quotes and line breaks; CRLF or LF; a UTF-8 byte order mark is dropped). Blank lines are skipped.
 * A row's own problems are not decided here (lib/imports/plan.ts): they never refuse the file.
 */
export async function parseImportCsv(bytes: Uint8Array): Promise<ParsedCsv> {
  if (bytes.byteLength > IMPORT_MAX_BYTES)
    return bad(413, 'File too large', `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bad(400, 'Not a CSV file', 'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.');
  }
  if (text.includes('\u0000')) return bad(400, 'Not a CSV file', 'The file contains binary data, not CSV text.');
  let records: string[][];
  try {
    records = await parseRecords(text);
  } catch (error) {
    return bad(400, 'Not a CSV file', `The file could not be read as CSV: ${(error as Error).message}`);
  }
  const [header, ...data] = records.filter((r) => r.some((cell) => cell.trim() !== ''));
  if (!header) return bad(422, 'Empty file', 'The file has no header row and no rows.');
  const names = header.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
  // With a `template` column, a row's text may come from its template (and its variables from the other columns).
  const templated = names.includes('template');
  const missing = REQUIRED.filter((c) => !names.includes(c) && !(templated && c === 'text'));
  if (missing.length > 0)
    return bad(
      422,
      'Missing columns',
      `The header row must name the columns ${REQUIRED.join(', ')} (missing: ${missing.join(', ')}); optional: time_zone, key, thread_group, part, first_comment, template (and its variables' columns).`,
    );
  const duplicated = names.filter((n, i) => n !== '' && names.indexOf(n) !== i);
  if (duplicated.length > 0)
    return bad(422, 'Duplicate columns', `The header names a column twice: ${[...new Set(duplicated)].join(', ')}.`);
  if (data.length > IMPORT_MAX_ROWS)
    return bad(
      422,
      'Too many rows',
      `The file has ${data.length} rows; an import takes at most ${IMPORT_MAX_ROWS}. Split it into several files.`,
    );
  const known = new Set<string>(IMPORT_COLUMNS);
  const unknown = names.filter((n) => n !== '' && !known.has(n));
  const ignoredColumns = templated ? [] : unknown;
  const rows = data.map((record, i): CsvRow => {
    const cells = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, ''])) as Record<ImportColumn, string>;
    const variables: Record<string, string> = {};
    names.forEach((name, column) => {
      if (known.has(name)) cells[name as ImportColumn] = record[column] ?? '';
      else if (templated && name !== '') variables[name] = record[column] ?? '';
    });
    return {
      row: i + 2,
      cells,
      ...(templated ? { variables } : {}),
      extraCells: record.slice(names.length).some((cell) => cell.trim() !== ''),
    };
  });
  return { ok: true, rows, ignoredColumns };
}

/** Text fed to the parser at a time: 5 MB parsed at once held the event loop for a second on a busy machine. */
const PARSE_SLICE_CHARS = 64 * 1024;

/**
 * csv-parse's streaming parser, fed slice by slice with the event loop running between them
 * (docs/publishing.md#import).
 */
async function parseRecords(text: string): Promise<string[][]> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  const records: string[][] = [];
  parser.on('readable', () => {
    for (let record: string[] | null; (record = parser.read() as string[] | null) !== null;) records.push(record);
  });
  let failed = false;
  const done = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', (error) => {
      failed = true;
      reject(error);
    });
  });
  done.catch(() => {}); // awaited below; a rejection meanwhile is not unhandled
  for (let at = 0; at < text.length && !failed;) {
    let end = Math.min(text.length, at + PARSE_SLICE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    parser.write(text.slice(at, end));
    at = end;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!failed) parser.end();
  await done;
  return records;
}

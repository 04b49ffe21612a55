// Browser-safe: CSV the app writes (the import page's errors, the publication report).

/**
 * One CSV cell, safe to open in a spreadsheet: a cell starting with = + - @ (or a tab or carriage return) would
 * run as a formula, so it gets a leading apostrophe (OWASP "CSV injection"); quotes are doubled and any cell
 * with a comma, quote or line break is quoted (RFC 4180). Null is an empty cell.
 */
export function csvCell(value: string | number | null): string {
  const text = value == null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line of cells (without its line break). */
export const csvLine = (values: readonly (string | number | null)[]) => values.map(csvCell).join(',');

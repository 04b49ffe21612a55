// Browser-safe: CSV the app writes (the import page's errors, the publication report).

/** What starts a formula, and the separators a spreadsheet may split a line on (comma, semicolon, tab, pipe). */
const TRIGGER = '[=+\\-@\\t\\r]';
const STARTS_FORMULA = new RegExp(`^${TRIGGER}`);
const SEPARATED_FORMULA = new RegExp(`([,;|\\t])(?=${TRIGGER})`, 'g');

/**
 * One CSV cell, safe to open in a spreadsheet: a cell starting with = + - @ (or a tab or carriage return) would
 * run as a formula, so it gets a leading apostrophe (OWASP "CSV injection"); so does every part after a separator
 * (`x;=cmd|…` is a formula to a spreadsheet that splits on `;`), the apostrophe going right after the separator.
 * Quotes are doubled and any cell with a comma, quote or line break is quoted (RFC 4180). Null is an empty cell.
 */
export function csvCell(value: string | number | null): string {
  const text = value == null ? '' : String(value);
  const parts = text.replace(SEPARATED_FORMULA, "$1'");
  const safe = STARTS_FORMULA.test(parts) ? `'${parts}` : parts;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line of cells (without its line break). */
export const csvLine = (values: readonly (string | number | null)[]) => values.map(csvCell).join(',');

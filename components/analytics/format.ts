// Browser-safe formatting for the analytics page and the report.

const integer = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });

/** A count, or an em dash where the networks give none (absent is not zero). */
export const count = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : integer.format(value);

export const rate = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : percent.format(value);

/** A change in words and a sign, never colour alone: "up 12.5 %", "down 3 %", "no change". */
export function changeText(change: number | null): string {
  if (change === null) return 'no previous figure';
  if (Math.abs(change) < 0.0005) return 'no change';
  return `${change > 0 ? 'up' : 'down'} ${percent.format(Math.abs(change))}`;
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const hourRange = (hour: number) =>
  `${String(hour).padStart(2, '0')}:00–${String((hour + 1) % 24).padStart(2, '0')}:00`;

/** A short count for a small cell (1.2K). */
export const compact = (value: number) => compactFormat.format(value < 1000 ? Math.round(value) : value);

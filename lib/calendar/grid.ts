/**
 * Calendar date arithmetic on civil dates (`YYYY-MM-DD`), free of React and of the viewer's zone: which days
 * a month or week view shows, and which UTC range holds every post on those days in any time zone.
 * Weeks start on Monday (ISO 8601).
 */

export const CALENDAR_VIEWS = ['month', 'week'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

const DAY_MS = 86_400_000;
const CIVIL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const toUtc = (date: string) => {
  const [, y, m, d] = CIVIL_DATE.exec(date)!.map(Number) as [number, number, number, number];
  return Date.UTC(y, m - 1, d);
};
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A real calendar date in `YYYY-MM-DD` (so 2026-02-30 is not). */
export function isCivilDate(value: string | undefined): value is string {
  if (!value || !CIVIL_DATE.test(value)) return false;
  const ms = toUtc(value);
  return Number.isFinite(ms) && fromUtc(ms) === value && value >= '1970-01-01' && value <= '9999-12-31';
}

export function addDays(date: string, days: number): string {
  return fromUtc(toUtc(date) + days * DAY_MS);
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(date: string): number {
  return (new Date(toUtc(date)).getUTCDay() + 6) % 7;
}

export function startOfWeek(date: string): string {
  return addDays(date, -weekdayIndex(date));
}

export function startOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

function addMonths(date: string, months: number): string {
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return fromUtc(Date.UTC(y, m - 1 + months, 1));
}

/** The days a view shows: whole weeks around the anchor's month, or the anchor's week. */
export function viewDays(view: CalendarView, anchor: string): string[] {
  const first = view === 'month' ? startOfWeek(startOfMonth(anchor)) : startOfWeek(anchor);
  const last = view === 'month' ? addDays(startOfWeek(addDays(addMonths(anchor, 1), -1)), 6) : addDays(first, 6);
  const days: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  return days;
}

/**
 * Where a view opens without a date: on today, except that a month view opens on next month when this week holds
 * next month's first day (that view starts with this week), so this week and the next are both in view.
 */
export function defaultAnchor(view: CalendarView, today: string): string {
  if (view === 'week') return today;
  const nextWeekEnd = addDays(startOfWeek(today), 13);
  if (viewDays('month', today).includes(nextWeekEnd)) return today;
  const firstOfNext = addMonths(startOfMonth(today), 1);
  return firstOfNext <= addDays(startOfWeek(today), 6) ? firstOfNext : today;
}

/** The anchor of the previous (-1) or next (+1) month or week. */
export function shiftAnchor(view: CalendarView, anchor: string, step: -1 | 1): string {
  return view === 'month' ? addMonths(anchor, step) : addDays(startOfWeek(anchor), 7 * step);
}

// Zones run from UTC−12 to UTC+14: local midnight of a day is within these bounds of its UTC midnight.
const EARLIEST_OFFSET_MS = 14 * 3_600_000;
const LATEST_OFFSET_MS = 12 * 3_600_000;

/**
 * The UTC range `[from, to)` that holds every instant of the shown days in every time zone. The server
 * (which does not know the viewer's zone) and the browser fetch the same range, so the prefetch hydrates.
 */
export function fetchRange(view: CalendarView, anchor: string): { from: string; to: string } {
  const days = viewDays(view, anchor);
  return {
    from: new Date(toUtc(days[0]!) - EARLIEST_OFFSET_MS).toISOString(),
    to: new Date(toUtc(days.at(-1)!) + DAY_MS + LATEST_OFFSET_MS).toISOString(),
  };
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The civil date, hour and `HH:mm` of an instant in a zone. */
export function zonedParts(instant: string | Date, timeZone: string): { date: string; hour: number; time: string } {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    partsFormats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), time: `${p.hour}:${p.minute}` };
}

/** `YYYY-MM-DDTHH:mm` of an instant in a zone: what <input type="datetime-local"> shows. */
export function zonedLocalInput(instant: string | Date, timeZone: string): string {
  const { date, time } = zonedParts(instant, timeZone);
  return `${date}T${time}`;
}

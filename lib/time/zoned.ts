import { TZDate } from '@date-fns/tz';

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The IANA name of a zone as the runtime spells it (`europe/berlin` → `Europe/Berlin`), or null when it is not
 * one: unknown names and bare UTC offsets (`+05:00`, which Intl also accepts) are refused.
 */
export function canonicalTimeZone(timeZone: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone) || !isValidTimeZone(timeZone)) return null;
  return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
}

/**
 * A wall-clock time (`YYYY-MM-DDTHH:mm`, from <input type="datetime-local">) in an IANA zone → the UTC
 * instant. A time skipped by a daylight-saving jump does not exist and is refused; a repeated one
 * (clocks going back) resolves to the first occurrence.
 */
export function zonedLocalToUtc(
  local: string,
  timeZone: string,
): { ok: true; date: Date } | { ok: false; error: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return { ok: false, error: 'Pick a date and time' };
  if (!isValidTimeZone(timeZone)) return { ok: false, error: `Unknown time zone "${timeZone}"` };
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const zoned = new TZDate(y, mo - 1, d, h, mi, timeZone);
  if (
    zoned.getFullYear() !== y ||
    zoned.getMonth() !== mo - 1 ||
    zoned.getDate() !== d ||
    zoned.getHours() !== h ||
    zoned.getMinutes() !== mi
  ) {
    return {
      ok: false,
      error: `${local.replace('T', ' ')} does not exist in ${timeZone} (the clocks skip it for daylight saving)`,
    };
  }
  // Of two instants with this wall-clock time (clocks going back), take the earlier one.
  const earlier = new Date(zoned.getTime() - 3_600_000);
  const earlierZoned = new TZDate(earlier.getTime(), timeZone);
  if (earlierZoned.getHours() === h && earlierZoned.getMinutes() === mi && earlierZoned.getDate() === d)
    return { ok: true, date: earlier };
  return { ok: true, date: new Date(zoned.getTime()) };
}

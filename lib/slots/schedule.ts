import { z } from 'zod';
import { addDays, weekdayIndex, zonedParts } from '@/lib/calendar/grid';
import { canonicalTimeZone, zonedLocalToUtc } from '@/lib/time/zoned';

/**
 * Posting slots: an account's weekly schedule of wall-clock times in its own zone ("Mondays 09:00,
 * Europe/Berlin"). Free of the database: the API, the settings page and the slot search share it.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABEL: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};
export const MAX_SLOTS_PER_WEEK = 100;

export const slotSchema = z
  .object({
    weekday: z.enum(WEEKDAYS, { error: `weekday is one of ${WEEKDAYS.join(', ')}` }),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time is HH:MM, from 00:00 to 23:59'),
  })
  .strict();
export type Slot = z.output<typeof slotSchema>;

/** The body of PUT /api/v1/accounts/:id/schedule (and its GET answer). */
export const postingScheduleSchema = z
  .object({
    timeZone: z
      .string()
      .max(64)
      .transform((v, ctx) => {
        const zone = canonicalTimeZone(v);
        if (!zone)
          ctx.addIssue({ code: 'custom', message: `Unknown time zone "${v}" (an IANA name, e.g. Europe/Berlin)` });
        return zone ?? v;
      })
      .describe('IANA time zone the slot times are read in, e.g. `Europe/Berlin`.'),
    slots: z
      .array(slotSchema)
      .max(MAX_SLOTS_PER_WEEK, `At most ${MAX_SLOTS_PER_WEEK} slots a week`)
      .superRefine((slots, ctx) => {
        const seen = new Set<string>();
        slots.forEach((s, i) => {
          const key = `${s.weekday} ${s.time}`;
          if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: `${key} is listed twice` });
          seen.add(key);
        });
      })
      .transform(sortSlots)
      .describe('Weekly slots: a weekday (`mon`…`sun`) and a wall-clock time (`HH:MM`) in `timeZone`.'),
  })
  .strict();
export type PostingScheduleInput = z.output<typeof postingScheduleSchema>;

/** Monday first, then by time. */
export function sortSlots(slots: Slot[]): Slot[] {
  return [...slots].sort(
    (a, b) => WEEKDAYS.indexOf(a.weekday) - WEEKDAYS.indexOf(b.weekday) || a.time.localeCompare(b.time),
  );
}

/**
 * The schedule's slot instants in `(after, until]`, earliest first, computed a day at a time as they are asked
 * for (a queue usually needs the first few). A time the clocks skip that day (spring forward) is no slot that
 * day; a repeated one (fall back) is its first occurrence.
 */
export function* slotInstants(schedule: PostingScheduleInput, window: { after: Date; until: Date }): Generator<Date> {
  if (schedule.slots.length === 0) return;
  const byWeekday = new Map<string, string[]>();
  for (const slot of sortSlots(schedule.slots))
    byWeekday.set(slot.weekday, [...(byWeekday.get(slot.weekday) ?? []), slot.time]);
  const last = zonedParts(window.until, schedule.timeZone).date;
  // From the day before, in the zone: its late slots may still lie after `after` in UTC terms.
  for (let day = addDays(zonedParts(window.after, schedule.timeZone).date, -1); day <= last; day = addDays(day, 1)) {
    const instants: Date[] = [];
    for (const time of byWeekday.get(WEEKDAYS[weekdayIndex(day)]!) ?? []) {
      const instant = zonedLocalToUtc(`${day}T${time}`, schedule.timeZone);
      if (instant.ok && instant.date > window.after && instant.date <= window.until) instants.push(instant.date);
    }
    yield* instants.sort((a, b) => a.getTime() - b.getTime());
  }
}

export function upcomingSlots(schedule: PostingScheduleInput, window: { after: Date; until: Date }): Date[] {
  return [...slotInstants(schedule, window)];
}

/** Whether an instant is one of the schedule's slots (its weekday and wall-clock time there, first occurrence). */
export function isSlotOf(schedule: PostingScheduleInput, instant: Date): boolean {
  const { date, time } = zonedParts(instant, schedule.timeZone);
  const weekday = WEEKDAYS[weekdayIndex(date)];
  if (!schedule.slots.some((s) => s.weekday === weekday && s.time === time)) return false;
  const back = zonedLocalToUtc(`${date}T${time}`, schedule.timeZone);
  return back.ok && back.date.getTime() === instant.getTime();
}

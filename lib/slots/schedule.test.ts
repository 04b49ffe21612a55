import { describe, expect, it } from 'vitest';
import { postingScheduleSchema, upcomingSlots } from './schedule';

const schedule = (timeZone: string, slots: { weekday: string; time: string }[]) =>
  postingScheduleSchema.parse({ timeZone, slots });
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('posting schedules: weekly wall-clock slots in the account’s zone', () => {
  it('lists the slots after a moment, in its zone, earliest first', () => {
    const berlin = schedule('Europe/Berlin', [
      { weekday: 'fri', time: '17:30' },
      { weekday: 'mon', time: '09:00' },
    ]);
    // Monday 2026-07-06 08:00 UTC = 10:00 in Berlin: that Monday's 09:00 has passed.
    const slots = upcomingSlots(berlin, {
      after: new Date('2026-07-06T08:00:00Z'),
      until: new Date('2026-07-14T00:00:00Z'),
    });
    expect(iso(slots)).toEqual(['2026-07-10T15:30:00.000Z', '2026-07-13T07:00:00.000Z']);
  });

  it('a slot late in the zone’s day can fall on the next UTC day (and is not missed)', () => {
    const tokyo = schedule('Asia/Tokyo', [{ weekday: 'tue', time: '08:00' }]); // Tuesday 08:00 JST = Monday 23:00 UTC
    expect(
      iso(upcomingSlots(tokyo, { after: new Date('2026-07-06T22:00:00Z'), until: new Date('2026-07-07T00:00:00Z') })),
    ).toEqual(['2026-07-06T23:00:00.000Z']);
  });

  it('daylight saving: a skipped time is no slot that day; a repeated one is its first occurrence', () => {
    const night = schedule('Europe/Berlin', [{ weekday: 'sun', time: '02:30' }]);
    // 2026-03-29: clocks jump from 02:00 to 03:00; 2026-10-25: 03:00 goes back to 02:00.
    expect(
      iso(upcomingSlots(night, { after: new Date('2026-03-28T00:00:00Z'), until: new Date('2026-04-06T00:00:00Z') })),
    ).toEqual(['2026-04-05T00:30:00.000Z']);
    expect(
      iso(upcomingSlots(night, { after: new Date('2026-10-24T00:00:00Z'), until: new Date('2026-10-26T00:00:00Z') })),
    ).toEqual(['2026-10-25T00:30:00.000Z']);
  });

  it('refuses what it cannot read, naming the field; sorts and canonicalises what it can', () => {
    const bad = postingScheduleSchema.safeParse({
      timeZone: 'Mars/Olympus',
      slots: [
        { weekday: 'mon', time: '24:00' },
        { weekday: 'funday', time: '09:00' },
      ],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'slots.0.time',
      'slots.1.weekday',
      'timeZone',
    ]);
    const twice = postingScheduleSchema.safeParse({
      timeZone: 'UTC',
      slots: [
        { weekday: 'tue', time: '09:00' },
        { weekday: 'tue', time: '09:00' },
      ],
    });
    expect(twice.error!.issues).toMatchObject([{ path: ['slots', 1], message: 'tue 09:00 is listed twice' }]);
    expect(
      schedule('europe/berlin', [
        { weekday: 'sun', time: '10:00' },
        { weekday: 'mon', time: '18:00' },
        { weekday: 'mon', time: '08:00' },
      ]),
    ).toEqual({
      timeZone: 'Europe/Berlin',
      slots: [
        { weekday: 'mon', time: '08:00' },
        { weekday: 'mon', time: '18:00' },
        { weekday: 'sun', time: '10:00' },
      ],
    });
  });
});

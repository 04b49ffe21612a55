import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, zonedLocalToUtc } from './zoned';

describe('zonedLocalToUtc', () => {
  it('converts a wall-clock time in a zone to UTC', () => {
    expect(zonedLocalToUtc('2026-07-01T09:30', 'Europe/Berlin')).toEqual({
      ok: true,
      date: new Date('2026-07-01T07:30:00Z'),
    });
    expect(zonedLocalToUtc('2026-12-01T09:30', 'Europe/Berlin')).toEqual({
      ok: true,
      date: new Date('2026-12-01T08:30:00Z'),
    });
    expect(zonedLocalToUtc('2026-12-01T09:30', 'America/New_York')).toEqual({
      ok: true,
      date: new Date('2026-12-01T14:30:00Z'),
    });
  });

  it('refuses a time skipped by the spring-forward jump', () => {
    const result = zonedLocalToUtc('2026-03-29T02:30', 'Europe/Berlin');
    expect(result.ok).toBe(false);
  });

  it('takes the first of two repeated times when clocks go back', () => {
    // 2026-10-25 02:30 happens twice in Berlin: first at 00:30Z (CEST), then 01:30Z (CET).
    expect(zonedLocalToUtc('2026-10-25T02:30', 'Europe/Berlin')).toEqual({
      ok: true,
      date: new Date('2026-10-25T00:30:00Z'),
    });
  });

  it('refuses malformed input and unknown zones', () => {
    expect(zonedLocalToUtc('tomorrow', 'UTC').ok).toBe(false);
    expect(zonedLocalToUtc('2026-12-01T09:30', 'Mars/Olympus').ok).toBe(false);
  });
});

describe('canonicalTimeZone (the workspace time zone setting)', () => {
  it('accepts IANA names, spelled as the runtime spells them', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).toMatch(/^America\/(Argentina\/)?Buenos_Aires$/);
  });

  it('refuses unknown names, bare offsets and anything else Intl might take', () => {
    for (const bad of ['Mars/Olympus', '+05:00', '-0800', '', ' ', 'Europe/Berlin; drop table', 'GMT+1'])
      expect(canonicalTimeZone(bad), bad).toBeNull();
  });
});

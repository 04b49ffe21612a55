import { describe, expect, it } from 'vitest';
import { checkRange, MAX_RANGE_DAYS } from './range';

describe('checkRange — ?from=&to= for the calendar and GET /api/v1/posts', () => {
  it('neither bound: no range (the unranged list)', () => {
    expect(checkRange({})).toEqual({ ok: true, range: null });
  });

  it('both bounds, any offset: [from, to) as instants', () => {
    expect(checkRange({ from: '2026-07-01T00:00:00+02:00', to: '2026-08-01T00:00:00Z' })).toEqual({
      ok: true,
      range: { from: new Date('2026-06-30T22:00:00Z'), to: new Date('2026-08-01T00:00:00Z') },
    });
  });

  it('exactly 100 days is allowed; a millisecond more is refused', () => {
    const from = '2026-01-01T00:00:00Z';
    const hundred = new Date(Date.parse(from) + MAX_RANGE_DAYS * 86_400_000);
    expect(checkRange({ from, to: hundred.toISOString() }).ok).toBe(true);
    const over = checkRange({ from, to: new Date(hundred.getTime() + 1).toISOString() });
    expect(over).toEqual({ ok: false, errors: { to: ['The range may span at most 100 days'] } });
  });

  it('half a range names the missing half', () => {
    expect(checkRange({ from: '2026-07-01T00:00:00Z' })).toEqual({
      ok: false,
      errors: { to: ['to is required with from'] },
    });
    expect(checkRange({ to: '2026-07-01T00:00:00Z' })).toEqual({
      ok: false,
      errors: { from: ['from is required with to'] },
    });
  });

  it('to must be after from (an empty or reversed range is a mistake, not an empty answer)', () => {
    const t = '2026-07-01T00:00:00Z';
    expect(checkRange({ from: t, to: t })).toEqual({ ok: false, errors: { to: ['to must be after from'] } });
    expect(checkRange({ from: t, to: '2026-06-01T00:00:00Z' }).ok).toBe(false);
  });

  it.each([
    ['a date without a time', '2026-07-01'],
    ['a time without a zone', '2026-07-01T00:00:00'],
    ['words', 'yesterday'],
    ['an impossible date', '2026-02-30T00:00:00Z'],
    ['a year Postgres cannot store', '+275760-01-01T00:00:00Z'],
  ])('refuses %s as a bound, naming the parameter', (_what, value) => {
    const result = checkRange({ from: value, to: '2026-07-02T00:00:00Z' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.from?.[0]).toMatch(/^from /);
  });
});

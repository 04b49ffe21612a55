import { describe, expect, it } from 'vitest';
import { checkReportPeriod, defaultPeriodDays } from './period';

describe('the report page’s period (whole days in the workspace’s zone)', () => {
  it('defaults to Monday of last week through Sunday of next week', () => {
    // Monday 30 November 2026, 08:00 in New York.
    expect(defaultPeriodDays('America/New_York', new Date('2026-11-30T13:00:00Z'))).toEqual({
      fromDay: '2026-11-23',
      toDay: '2026-12-13',
    });
    // Sunday 29 November, late evening in New York, is already Monday in Tokyo.
    expect(defaultPeriodDays('America/New_York', new Date('2026-11-30T03:00:00Z')).fromDay).toBe('2026-11-16');
    expect(defaultPeriodDays('Asia/Tokyo', new Date('2026-11-30T03:00:00Z')).fromDay).toBe('2026-11-23');
  });

  it('includes the end day, at the zone’s midnights', () => {
    const checked = checkReportPeriod({ from: '2026-11-01', to: '2026-11-30' }, 'Europe/Paris');
    expect(checked).toMatchObject({
      ok: true,
      period: {
        range: { from: new Date('2026-10-31T23:00:00Z'), to: new Date('2026-11-30T23:00:00Z') },
      },
    });
  });

  it('says what is wrong with a bad period, and reads nothing', () => {
    expect(checkReportPeriod({ from: 'yesterday', to: '2026-11-30' }, 'UTC')).toMatchObject({
      ok: false,
      errors: { from: 'Pick a start date' },
    });
    expect(checkReportPeriod({ from: '2026-11-30', to: '2026-11-01' }, 'UTC')).toMatchObject({
      ok: false,
      errors: { to: 'The end date is before the start date' },
    });
    expect(checkReportPeriod({ from: '2026-01-01', to: '2026-12-31' }, 'UTC')).toMatchObject({
      ok: false,
      errors: { to: 'A report covers at most 100 days' },
    });
  });
});

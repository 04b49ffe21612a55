import { describe, expect, it } from 'vitest';
import { addDays, defaultAnchor, startOfWeek, viewDays } from './grid';

describe('defaultAnchor', () => {
  it('opens the month view on today when this week and the next are in it', () => {
    expect(defaultAnchor('month', '2026-11-11')).toBe('2026-11-11');
  });

  it('opens on next month when this week holds its first day, so next week is in view too', () => {
    // Monday 30 November: December's view starts that Monday and runs to January.
    expect(defaultAnchor('month', '2026-11-30')).toBe('2026-12-01');
    expect(defaultAnchor('month', '2026-12-31')).toBe('2027-01-01');
  });

  it('keeps today when no month view holds both weeks (the month ends on this Sunday)', () => {
    // Sunday 31 May 2026 ends its week and its month.
    expect(defaultAnchor('month', '2026-05-27')).toBe('2026-05-27');
  });

  it('the week view opens on today', () => {
    expect(defaultAnchor('week', '2026-11-30')).toBe('2026-11-30');
  });

  it('every day of a year: the opened month view shows today, and this week and the next whenever one view can', () => {
    for (let today = '2026-01-01'; today <= '2026-12-31'; today = addDays(today, 1)) {
      const days = viewDays('month', defaultAnchor('month', today));
      expect(days).toContain(today);
      const week = startOfWeek(today);
      const fits = [today, addDays(today, 20)].some((anchor) => {
        const shown = viewDays('month', anchor);
        return shown.includes(week) && shown.includes(addDays(week, 13));
      });
      if (fits) expect(days).toContain(addDays(week, 13));
    }
  });
});

import type { PropertyName } from './property';

/**
 * Runs that once failed, replayed before every new run so a fixed bug stays fixed: the `seed` and `path`
 * that fast-check prints for a failing run of the named property, with what it found.
 */
export type Regression = { property: PropertyName; seed: number; path: string; found: string };

export const REGRESSIONS: Regression[] = [
  {
    property: 'slow',
    seed: -1786091616,
    path: '1',
    found:
      'with the reconciler reading before the allowance (callTimeout and allowance 0, recheck 0), a slow platform held two copies',
  },
  {
    property: 'general',
    seed: -1091791204,
    path: '28',
    found:
      'a Mastodon write landing three jumps late: released on two empty reads, then missed past the lateness limit; the late copy appeared and the delivery still said missed (no watch after a release that was never sent)',
  },
];

import fc from 'fast-check';
import { describe, it } from 'vitest';
import { simulationProperty, simulationRuns, timeoutFor } from './property';
import { REGRESSIONS } from './regressions';

// The window docs/architecture.md#proof-of-absence guards: a platform still creating the post after our call gave up. A reconciler that
// read before the allowance passed would find nothing, release, and the new attempt would make a copy.
const property = await simulationProperty('slow');
const runs = simulationRuns('slow');

describe('simulation — I1, I2 on platforms slower than our call timeout', () => {
  for (const r of REGRESSIONS.filter((x) => x.property === 'slow')) {
    it(`regression (seed ${r.seed}, path ${r.path}): ${r.found}`, async () => {
      await fc.assert(property, { seed: r.seed, path: r.path, numRuns: 1, endOnFailure: true });
    }, 60_000);
  }

  it(
    `I1 I2 I4 I5 — no read, so no release, before every request that may still run on the platform has ended (${runs} runs)`,
    async () => {
      await fc.assert(property, { numRuns: runs, endOnFailure: true });
    },
    timeoutFor(runs),
  );
});

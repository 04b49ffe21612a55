import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulationProperty, simulationRuns } from './property';

// docs/architecture.md#late-copies: a write finished past the allowance defeats a proof of absence. The property
// (testing/simulation/invariants.ts) allows its second copy only in review with every copy listed, never "sent".
let caught = 0;
let found = 0;
const property = await simulationProperty('late', (result) => {
  for (const d of result.deliveries) {
    const copies = result.platformPosts.filter((p) => p.accountId === d.sandboxAccountId && d.texts.has(p.text));
    if (copies.length > 1) caught++;
    else if (copies.length === 1) found++;
  }
});
const runs = Math.max(10, simulationRuns('late'));

describe('simulation — I1 on platforms that create a post past the allowance', () => {
  it(
    `I1 I2 I4 I5 — a late copy is never "sent": the watch puts it in review with both copies (${runs} runs)`,
    async () => {
      await fc.assert(property, { numRuns: runs, endOnFailure: true });
      console.log(`late platform: ${found} deliveries with one copy, ${caught} with a late second copy caught`);
      // Each side of the race happened: a late original read in time (one copy), and one read too late (caught).
      expect(found).toBeGreaterThan(0);
      expect(caught).toBeGreaterThan(0);
    },
    // A late write holds its request until the client's (real, free-running) timeout: several seconds a run.
    Math.max(180_000, runs * 15_000),
  );
});

import fc from 'fast-check';
import { beforeAll, inject } from 'vitest';
import { createTestDatabase } from '../db/test-database';
import { installFenceAudit } from './database';
import { checkInvariants } from './invariants';
import { latePlatformPlan, simulationPlan, slowPlatformPlan } from './plan';
import { simulate } from './simulate';

export type PropertyName = 'general' | 'slow' | 'late';

/** Runs of the general property; npm run simulate -- --runs N provides it (the slow-platform one runs 60 % of it). */
export function simulationRuns(property: PropertyName): number {
  const runs = inject('simulationRuns') ?? 30;
  return property === 'general' ? runs : Math.ceil(runs * (property === 'slow' ? 0.6 : 0.4));
}

/**
 * Generous: a run takes about 1.5 s here alone (npm run simulate prints the rate), and CI's durable system Postgres
 * beside other test files made 30 runs exceed 60 s once.
 */
export const timeoutFor = (runs: number) => Math.max(180_000, runs * 5_000);

/** The property on this test file's own database: any violation fails the run with its steps. */
export async function simulationProperty(
  property: PropertyName,
  onRun: (result: Awaited<ReturnType<typeof simulate>>) => void = () => {},
) {
  const { db } = await createTestDatabase({ max: 4 });
  beforeAll(() => installFenceAudit(db));
  return fc.asyncProperty(
    fc.scheduler(),
    { general: simulationPlan, slow: slowPlatformPlan, late: latePlatformPlan }[property],
    async (s, plan) => {
      const result = await simulate(db, s, plan);
      const violations = await checkInvariants(db, result);
      onRun(result);
      if (violations.length > 0) throw new Error(`${violations.join('\n')}\n\nsteps:\n${result.sim.trace.join('\n')}`);
    },
  );
}

declare module 'vitest' {
  export interface ProvidedContext {
    simulationRuns?: number;
  }
}

import type { Database } from '@/db/client';
import { upsertAccount } from '@/db/queries/accounts';
import { sealCredentials } from '@/lib/providers/credentials';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { allowanceFor } from '@/lib/reconcile/allowance-map';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';
import { NO_FAULTS, type Profile } from '@/sandbox/store/types';
import { TEST_ENCRYPTION_KEY } from '../keys';
import { testPublisherOptions } from '../publisher';
import { testReconcileOptions } from '../reconciler';
import { shiftTimestampsBack } from './database';
import { gatedDatabase } from './gated-database';
import type { FaultRates, Platform } from './plan';
import { SIM_ORIGIN, type simulatedPlatform } from './platform';
import type { Actor, Simulation } from './scheduler';

// What every simulation shares: its accounts, its workers (the real publisher and reconciler, gated so fast-check
// orders their every await) and its time jumps.

/** One time jump: longer than the lease, the call timeout plus any allowance, the recheck delay and any read lag. */
export const JUMP_MS = 5 * 60_000;
/** The statuses a delivery ends in. */
export const TERMINAL = new Set(['sent', 'failed', 'canceled', 'missed', 'needs_review']);

// Production-like timing (the defaults of lib/env.ts): time passes only by explicit jumps, so nothing
// here waits, and a read never comes before the allowance has passed on the simulated clock.
export const TIMING = {
  leaseMs: 60_000,
  callTimeoutMs: 10_000,
  allowanceMs: allowanceFor(60_000),
};

type SimulatedPlatform = ReturnType<typeof simulatedPlatform>;

export type SimAccountPlan = {
  platform: Platform;
  faults: FaultRates;
  profile: Profile;
  slowShare: number;
};

/** A sandbox account with its faults and the product's account connected to it. */
export async function simAccount(
  db: Database,
  platform: SimulatedPlatform,
  workspaceId: string,
  plan: SimAccountPlan,
): Promise<{ sandboxAccountId: string; productAccountId: string; handle: string }> {
  const { platformUserId, token, suffix } = newSandboxIdentity();
  const handle = `@sim_${suffix}`;
  const sandboxAccount = await platform.store.registerAccount({
    platform: plan.platform,
    platformUserId,
    handle,
    token,
  });
  await platform.store.setFaults([sandboxAccount.id], { ...NO_FAULTS, ...plan.faults, profile: plan.profile });
  platform.setSlowShare(sandboxAccount.id, plan.slowShare);
  const product = await upsertAccount(db, {
    workspaceId,
    provider: plan.platform,
    sandbox: true,
    handle,
    platformUserId,
    baseUrl: `/api/sandbox/${plan.platform}`,
    ...sealCredentials({ accessToken: token }, TEST_ENCRYPTION_KEY),
  });
  return { sandboxAccountId: sandboxAccount.id, productAccountId: product!.id, handle };
}

/** The publisher, the reconciler and a time jump, each run as `actor` against the simulated platform. */
export function simWorkers(db: Database, sim: Simulation, platform: SimulatedPlatform) {
  return {
    publish: (actor: Actor, overrides: { batchSize?: number; concurrency?: number } = {}) =>
      publishDueDeliveries(
        gatedDatabase(db, sim, actor),
        testPublisherOptions(SIM_ORIGIN, {
          workerId: actor.name,
          ...overrides,
          chunkSize: 1,
          budgetMs: 60_000,
          ...TIMING,
          transport: platform.transport(actor),
        }),
      ),
    reconcile: (actor: Actor) =>
      reconcileAmbiguousDeliveries(
        gatedDatabase(db, sim, actor),
        testReconcileOptions(SIM_ORIGIN, {
          workerId: actor.name,
          batchSize: 2,
          ...TIMING,
          recheckDelayMs: 15_000,
          releaseMarginMs: 30_000,
          transport: platform.transport(actor),
        }),
      ),
    timeJump: (actor: Actor) =>
      sim.io(actor, 'time jump', async () => {
        await shiftTimestampsBack(db, JUMP_MS);
        platform.shiftBack(JUMP_MS);
        sim.jump();
      }),
  };
}

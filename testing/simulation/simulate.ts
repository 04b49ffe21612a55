import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Scheduler } from 'fast-check';
import type { Database } from '@/db/client';
import { cancelScheduledDeliveries } from '@/db/queries/deliveries';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { workspaces } from '@/db/schema';
import { makeWorkspace } from '../db/factories';
import { countOpenWatches, listSimDeliveries, resetSimulationData } from './database';
import { editScheduledPost } from '@/lib/posts/edit';
import { testWatchOptions } from '../reconciler';
import { watchForLateCopies } from '@/lib/reconcile/watch';
import { NO_FAULTS } from '@/sandbox/store/types';
import { gatedDatabase } from './gated-database';
import type { SimulationPlan } from './plan';
import { SIM_ORIGIN, simulatedPlatform } from './platform';
import { Simulation, type Actor } from './scheduler';
import { seededRandom } from '@/lib/random/seeded';
import { simAccount, simWorkers, TERMINAL, TIMING } from './workers';

const MAX_DRAIN_ROUNDS = 14;
// A reconciler pass that finds nothing is one step, a publisher's three: both poll for about as long.
const MAX_IDLE_POLLS = { publisher: 4, reconciler: 12 };

/** The watch's steps after a republished delivery is sent: each falls due after one or more time jumps. */
const WATCH_DELAYS_MS = [2 * 60_000, 10 * 60_000, 20 * 60_000];

export type SimulatedDelivery = {
  id: string;
  postId: string;
  sandboxAccountId: string;
  texts: Set<string>;
  /** Its account may finish a write past the allowance: a second copy is then possible, never a "sent" one. */
  lateCreates: boolean;
};

export type SimulationResult = {
  sim: Simulation;
  deliveries: SimulatedDelivery[];
  platformPosts: { id: string; accountId: string; text: string; kind: string }[];
  stuck: string[];
};

/** Runs one plan: set-up, the scheduled phase (fast-check orders every step), then a free drain. */
export async function simulate(db: Database, s: Scheduler, plan: SimulationPlan): Promise<SimulationResult> {
  await resetSimulationData(db);
  const sim = new Simulation(s);
  const platform = simulatedPlatform(sim, { random: seededRandom(plan.randomSeed) });
  const workspace = await makeWorkspace(db);
  await db
    .update(workspaces)
    .set({ latenessLimitSeconds: plan.latenessLimitSeconds })
    .where(eq(workspaces.id, workspace.id));

  const accounts: { plan: SimulationPlan['accounts'][number]; sandboxAccountId: string; productAccountId: string }[] =
    [];
  for (const a of plan.accounts) {
    const account = await simAccount(db, platform, workspace.id, a);
    if (a.readLag) platform.setReadLag(account.sandboxAccountId);
    platform.setLateShare(account.sandboxAccountId, a.lateShare);
    accounts.push({ plan: a, ...account });
  }

  const deliveries: SimulatedDelivery[] = [];
  const posts: { id: string; text: string }[] = [];
  for (const [i, targets] of plan.posts.entries()) {
    const text = `sim post ${i} ${randomUUID().slice(0, 6)}`;
    const created = await insertPostWithDeliveries(db, {
      post: { workspaceId: workspace.id, text, scheduledAt: new Date(), source: 'api', idempotencyKey: randomUUID() },
      accountIds: targets.map((t) => accounts[t]!.productAccountId),
      actor: 'sim:setup',
    });
    posts.push({ id: created!.post.id, text });
    for (const t of targets) {
      const account = accounts[t]!;
      for (let k = 0; k < account.plan.decoys; k++) {
        const sandboxAccount = (await platform.store.getAccountById(account.sandboxAccountId))!;
        const decoy = k === 0 ? `${text}!` : `${text} again`;
        await platform.addForeignPost({ account: sandboxAccount, kind: 'post', text: decoy });
      }
    }
    for (const d of created!.deliveries) {
      const account = accounts.find((a) => a.productAccountId === d.accountId)!;
      deliveries.push({
        id: d.id,
        postId: created!.post.id,
        sandboxAccountId: account.sandboxAccountId,
        texts: new Set([text]),
        lateCreates: account.plan.lateShare > 0,
      });
    }
  }

  const { publish, reconcile, timeJump } = simWorkers(db, sim, platform);

  const watch = (actor: Actor) =>
    watchForLateCopies(
      gatedDatabase(db, sim, actor),
      testWatchOptions(SIM_ORIGIN, {
        workerId: actor.name,
        batchSize: 2,
        leaseMs: TIMING.leaseMs,
        delaysMs: WATCH_DELAYS_MS,
        transport: platform.transport(actor),
      }),
    );

  // The scheduled phase: every actor starts at once; fast-check decides which await point goes next.
  for (const [i, a] of plan.actors.entries()) {
    const actor = sim.actor(`${a.kind}#${i}`, 'crashAt' in a ? a.crashAt : null);
    sim.run(actor, async () => {
      switch (a.kind) {
        // Workers poll like the scheduler does: a pass that finds nothing to do does not count, up to a limit.
        case 'publisher':
          for (let done = 0, idle = 0; done < a.passes && idle < MAX_IDLE_POLLS.publisher;) {
            const r = await publish(actor, a);
            if (r.claimed + r.released + r.ambiguous + r.missed > 0) done++;
            else idle++;
          }
          return;
        case 'reconciler':
          for (let done = 0, idle = 0; done < a.passes && idle < MAX_IDLE_POLLS.reconciler;) {
            if ((await reconcile(actor)).checked > 0) done++;
            else idle++;
          }
          return;
        case 'watcher':
          for (let done = 0, idle = 0; done < a.passes && idle < MAX_IDLE_POLLS.reconciler;) {
            if ((await watch(actor)).checked > 0) done++;
            else idle++;
          }
          return;
        case 'edit': {
          const post = posts[a.post]!;
          const text = `${post.text} (edited by ${actor.name})`;
          // Known before the edit commits: a copy with either text is this delivery's.
          for (const d of deliveries) if (d.postId === post.id) d.texts.add(text);
          return editScheduledPost(gatedDatabase(db, sim, actor), {
            workspaceId: workspace.id,
            postId: post.id,
            changes: { text },
            actor: `sim:${actor.name}`,
          });
        }
        case 'cancel':
          return cancelScheduledDeliveries(gatedDatabase(db, sim, actor), {
            workspaceId: workspace.id,
            postId: posts[a.post]!.id,
            actor: `sim:${actor.name}`,
          });
        case 'time-jump':
          return timeJump(actor);
      }
    });
  }
  await sim.drive(5_000);
  const stuck = sim.actors.filter((a) => !a.done && !a.crashed).map((a) => a.name);

  // The drain: the crashed stay dead, the platform recovers (its profile stays), time passes in jumps,
  // and one publisher and one reconciler run after each jump until every delivery has settled.
  sim.free = true;
  for (const a of accounts)
    await platform.store.setFaults([a.sandboxAccountId], { ...NO_FAULTS, profile: a.plan.profile });
  for (let round = 0; round < MAX_DRAIN_ROUNDS; round++) {
    const rows = await listSimDeliveries(db);
    if (rows.every((d) => TERMINAL.has(d.status)) && (await countOpenWatches(db)) === 0) break;
    await timeJump(sim.actor(`drain-jump#${round}`, null));
    await publish(sim.actor(`drain-publisher#${round}`, null), { batchSize: 10, concurrency: 4 });
    await reconcile(sim.actor(`drain-reconciler#${round}`, null));
    await watch(sim.actor(`drain-watcher#${round}`, null));
  }
  platform.close();

  return {
    sim,
    deliveries,
    platformPosts: platform.allPosts().map((p) => ({ id: p.id, accountId: p.accountId, text: p.text, kind: p.kind })),
    stuck,
  };
}

import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc, { type Scheduler } from 'fast-check';
import type { Database } from '@/db/client';
import { insertInboxItems } from '@/db/queries/inbox/items';
import { rows } from '@/db/queries/deliveries/rows';
import { answerInboxItem, type AnswerResult } from '@/lib/inbox/answer';
import { seededRandom } from '@/lib/random/seeded';
import { PEOPLE, personAccount } from '@/sandbox/behaviour/people';
import { NO_FAULTS, type Profile } from '@/sandbox/store/types';
import { makeWorkspace } from '../db/factories';
import { listSimDeliveries, resetSimulationData } from './database';
import { gatedDatabase } from './gated-database';
import type { FaultRates } from './plan';
import { simulatedPlatform } from './platform';
import { Simulation } from './scheduler';
import type { SimulationResult } from './simulate';
import { simAccount, simWorkers, TERMINAL } from './workers';

// Concurrent answers to one inbox item (docs/inbox.md#answering), under every interleaving fast-check picks: members
// answering at once, each intent retried (a double click, a resubmission with its key), "send another reply anyway",
// crashes at any await point, the publisher and the reconciler racing them on a platform that fails like real ones.

/** One answer intent: its key and its request (a retry sends exactly this again). */
export type IntentPlan = { after: 0 | 1 };
export type InboxActorPlan =
  /** A member (or integration) sending intent `intent`; several with one intent are its retries. */
  | { kind: 'answer'; intent: number; crashAt: number | null }
  | { kind: 'publisher'; passes: number; crashAt: number | null }
  | { kind: 'reconciler'; passes: number; crashAt: number | null }
  | { kind: 'time-jump' };
export type InboxAnswersPlan = {
  platform: 'x' | 'mastodon';
  profile: Profile;
  faults: FaultRates;
  slowShare: number;
  intents: IntentPlan[];
  actors: InboxActorPlan[];
  randomSeed: number;
};

const rate = fc.constantFrom(0, 0, 0, 0.5, 1);
const crashAt = fc.option(fc.integer({ min: 1, max: 10 }), { freq: 3 });

export const inboxAnswersPlan: fc.Arbitrary<InboxAnswersPlan> = fc
  .record({
    platform: fc.constantFrom<'x' | 'mastodon'>('x', 'mastodon'),
    faults: fc.record({
      timeoutBeforeCommit: rate,
      timeoutAfterCommit: rate,
      errorAfterCommit: rate,
      resetAfterCommit: rate,
      rateLimited: fc.constantFrom(0, 0, 0.5),
      listingUnavailable: rate,
    }),
    slowShare: fc.constantFrom(0, 0, 0.5, 1),
    // Mostly the first answer, by several members at once; now and then "another reply anyway".
    intents: fc.array(fc.record({ after: fc.constantFrom<0 | 1>(0, 0, 0, 1) }), { minLength: 1, maxLength: 4 }),
    randomSeed: fc.integer(),
  })
  .chain((base) =>
    fc.record({
      ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, fc.constant(v)])),
      // The weak profiles only: one reply must come from our guards, not from the platform absorbing a resend.
      profile: fc.constant<Profile>(base.platform === 'x' ? 'x-nodedupe' : 'mastodon-nokey'),
      actors: fc.array(
        fc.oneof(
          {
            weight: 5,
            arbitrary: fc.record({
              kind: fc.constant('answer' as const),
              intent: fc.nat({ max: base.intents.length - 1 }),
              crashAt,
            }),
          },
          {
            weight: 2,
            arbitrary: fc.record({
              kind: fc.constant('publisher' as const),
              passes: fc.integer({ min: 1, max: 2 }),
              crashAt,
            }),
          },
          {
            weight: 2,
            arbitrary: fc.record({
              kind: fc.constant('reconciler' as const),
              passes: fc.integer({ min: 1, max: 3 }),
              crashAt,
            }),
          },
          { weight: 1, arbitrary: fc.constant({ kind: 'time-jump' as const }) },
        ),
        { minLength: 3, maxLength: 8 },
      ),
    }),
  ) as fc.Arbitrary<InboxAnswersPlan>;

const MAX_DRAIN_ROUNDS = 12;

export type InboxAnswersResult = SimulationResult & {
  itemId: string;
  intents: IntentPlan[];
  /** What each answer actor was told (absent: it crashed first). */
  answers: { intent: number; result: AnswerResult | null }[];
  /** Our replies to the item, as the platform's own records hold them. */
  replies: { id: string; text: string }[];
  /** Answer rows per place (the claim). */
  places: number[];
};

export async function simulateInboxAnswers(
  db: Database,
  s: Scheduler,
  plan: InboxAnswersPlan,
): Promise<InboxAnswersResult> {
  await resetSimulationData(db);
  const sim = new Simulation(s);
  const platform = simulatedPlatform(sim, { random: seededRandom(plan.randomSeed) });
  const workspace = await makeWorkspace(db);
  const ours = await simAccount(db, platform, workspace.id, plan);
  // One of the sandbox's people mentions the account; the inbox stored it.
  const person = await personAccount(platform.store, plan.platform, PEOPLE[0]!);
  const said = await platform.store.insertInbound({
    account: person,
    kind: 'post',
    text: `${ours.handle} where is my order?`,
    addressedTo: ours.sandboxAccountId,
    inboundKey: randomUUID(),
  });
  const [item] = await insertInboxItems(db, {
    workspaceId: workspace.id,
    accountId: ours.productAccountId,
    provider: plan.platform,
    stream: 'mentions',
    items: [
      {
        platformId: said.id,
        kind: 'mention',
        authorPlatformId: person.platformUserId,
        authorHandle: person.handle,
        authorName: person.displayName,
        text: said.text,
        url: null,
        media: [],
        inReplyTo: null,
        conversationId: null,
        receivedAt: said.createdAt,
      },
    ],
  });
  const intents = plan.intents.map((intent, i) => ({
    ...intent,
    key: randomUUID(),
    text: `answer ${i} ${randomUUID().slice(0, 6)}`,
  }));

  const { publish, reconcile, timeJump } = simWorkers(db, sim, platform);

  const answers: InboxAnswersResult['answers'] = [];
  for (const [i, a] of plan.actors.entries()) {
    const actor = sim.actor(`${a.kind}#${i}`, 'crashAt' in a ? a.crashAt : null);
    sim.run(actor, async () => {
      switch (a.kind) {
        case 'answer': {
          const intent = intents[a.intent]!;
          const told: InboxAnswersResult['answers'][number] = { intent: a.intent, result: null };
          answers.push(told);
          told.result = await answerInboxItem(gatedDatabase(db, sim, actor), item!.id, intent, {
            workspaceId: workspace.id,
            idempotencyKey: intent.key,
            actorName: actor.name,
            actor: `sim:${actor.name}`,
            source: 'api',
          });
          return;
        }
        case 'publisher':
          for (let pass = 0; pass < a.passes; pass++) await publish(actor);
          return;
        case 'reconciler':
          for (let pass = 0; pass < a.passes; pass++) await reconcile(actor);
          return;
        case 'time-jump':
          return timeJump(actor);
      }
    });
  }
  await sim.drive(5_000);
  const stuck = sim.actors.filter((x) => !x.done && !x.crashed).map((x) => x.name);

  // The drain: the platform recovers (its profile stays), time passes, one publisher and one reconciler per jump.
  sim.free = true;
  await platform.store.setFaults([ours.sandboxAccountId], { ...NO_FAULTS, profile: plan.profile });
  for (let round = 0; round < MAX_DRAIN_ROUNDS; round++) {
    if ((await listSimDeliveries(db)).every((d) => TERMINAL.has(d.status))) break;
    await timeJump(sim.actor(`drain-jump#${round}`, null));
    await publish(sim.actor(`drain-publisher#${round}`, null));
    await reconcile(sim.actor(`drain-reconciler#${round}`, null));
  }
  platform.close();

  const stored = rows<{ deliveryId: string; postId: string; text: string; number: number }>(
    await db.execute(sql`
      select d.id as "deliveryId", a.post_id as "postId", a.text, a.number
      from inbox_answers a join deliveries d on d.post_id = a.post_id where a.item_id = ${item!.id}`),
  );
  const created = platform.allPosts();
  return {
    sim,
    stuck,
    itemId: item!.id,
    intents: plan.intents,
    answers,
    places: stored.map((s) => s.number),
    deliveries: stored.map((s) => ({
      id: s.deliveryId,
      postId: s.postId,
      sandboxAccountId: ours.sandboxAccountId,
      texts: new Set([s.text]),
      lateCreates: false,
    })),
    platformPosts: created.map((p) => ({ id: p.id, accountId: p.accountId, text: p.text, kind: p.kind })),
    replies: created
      .filter((p) => p.accountId === ours.sandboxAccountId && p.inReplyToId === said.id && !p.deletedAt)
      .map((p) => ({ id: p.id, text: p.text })),
  };
}

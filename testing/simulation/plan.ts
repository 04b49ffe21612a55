import fc from 'fast-check';
import type { Profile } from '@/sandbox/store/types';

/** X and Mastodon publish in one call; Threads in two around a media container whose status is the evidence. */
export type Platform = 'x' | 'mastodon' | 'threads';
export type FaultRates = {
  timeoutBeforeCommit: number;
  timeoutAfterCommit: number;
  errorAfterCommit: number;
  resetAfterCommit: number;
  rateLimited: number;
  listingUnavailable: number;
};
/**
 * `slowShare`: the share of writes the platform finishes only after our call timed out (processing time
 * beyond the call timeout, within the allowance): created at the next time jump. `readLag`: new posts are
 * listed only after a scheduled event (before the next time jump).
 */
export type AccountPlan = {
  platform: Platform;
  profile: Profile;
  faults: FaultRates;
  slowShare: number;
  readLag: boolean;
  /**
   * Posts the account made outside Semel in the window, close to ours but not the same (ours with a word added, or
   * with "!"): a read must answer "similar" for them, never prove absence through them nor take one for ours.
   */
  decoys: number;
  /**
   * The share of writes the platform finishes only three time jumps later: past the allowance, so two reads can
   * "prove" an absence that is not one. Only the late-copy watch can then catch the second copy.
   */
  lateShare: number;
};
export type ActorPlan =
  | { kind: 'publisher'; passes: number; batchSize: number; concurrency: number; crashAt: number | null }
  | { kind: 'reconciler'; passes: number; crashAt: number | null }
  | { kind: 'watcher'; passes: number; crashAt: number | null }
  | { kind: 'edit'; post: number; crashAt: number | null }
  | { kind: 'cancel'; post: number; crashAt: number | null }
  /** Time passes beyond every lease, call timeout, processing allowance and read lag. */
  | { kind: 'time-jump' };
export type SimulationPlan = {
  accounts: AccountPlan[];
  /** Each post targets some of the accounts (indices). */
  posts: number[][];
  latenessLimitSeconds: number;
  actors: ActorPlan[];
  /** Seeds the platform's fault dice (deps.random). */
  randomSeed: number;
};

// The weak profiles weigh most: a zero-duplicates result must come from our guards, not the platform's.
const PROFILES: Record<Platform, Profile[]> = {
  x: ['x-nodedupe', 'plain', 'x'],
  mastodon: ['mastodon-legacy', 'mastodon-nokey', 'plain', 'mastodon-modern'],
  // `plain` publishes a published container again, as no real server does: only our guards stand in the way.
  threads: ['plain', 'threads'],
};

const NO_FAULT_RATES: FaultRates = {
  timeoutBeforeCommit: 0,
  timeoutAfterCommit: 0,
  errorAfterCommit: 0,
  resetAfterCommit: 0,
  rateLimited: 0,
  listingUnavailable: 0,
};
const rate = fc.constantFrom(0, 0, 0, 0.5, 1);
const faults: fc.Arbitrary<FaultRates> = fc.record({
  timeoutBeforeCommit: rate,
  timeoutAfterCommit: rate,
  errorAfterCommit: rate,
  resetAfterCommit: rate,
  rateLimited: fc.constantFrom(0, 0, 0, 0.5),
  listingUnavailable: rate,
});

const account: fc.Arbitrary<AccountPlan> = fc.constantFrom<Platform>('x', 'mastodon', 'threads').chain((platform) =>
  fc.record({
    platform: fc.constant(platform),
    profile: fc.constantFrom(...PROFILES[platform]),
    faults,
    slowShare: fc.constantFrom(0, 0, 0.5, 1),
    readLag: fc.boolean(),
    decoys: fc.constantFrom(0, 0, 1, 2),
    lateShare: fc.constantFrom(0, 0, 0, 0.5, 1),
  }),
);

/** A crash point: the actor's n-th await point (database call or platform send), or never. */
const crashAt = fc.option(fc.integer({ min: 1, max: 14 }), { freq: 2 });

function actor(posts: number): fc.Arbitrary<ActorPlan> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('publisher' as const),
        passes: fc.integer({ min: 1, max: 3 }),
        batchSize: fc.integer({ min: 1, max: 3 }),
        concurrency: fc.integer({ min: 1, max: 2 }),
        crashAt,
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('reconciler' as const),
        passes: fc.integer({ min: 1, max: 4 }),
        crashAt,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('watcher' as const),
        passes: fc.integer({ min: 1, max: 2 }),
        crashAt,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('edit' as const), post: fc.nat({ max: posts - 1 }), crashAt }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('cancel' as const), post: fc.nat({ max: posts - 1 }), crashAt }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'time-jump' as const }) },
  );
}

export const simulationPlan: fc.Arbitrary<SimulationPlan> = fc
  .record({ accounts: fc.array(account, { minLength: 1, maxLength: 2 }), postCount: fc.integer({ min: 1, max: 3 }) })
  .chain(({ accounts, postCount }) =>
    fc.record({
      accounts: fc.constant(accounts),
      posts: fc.array(
        fc.subarray(
          accounts.map((_, i) => i),
          { minLength: 1 },
        ),
        { minLength: postCount, maxLength: postCount },
      ),
      latenessLimitSeconds: fc.constantFrom(900, 3600),
      actors: fc.array(actor(postCount), { minLength: 2, maxLength: 7 }),
      randomSeed: fc.integer(),
    }),
  );

/**
 * The narrow window of docs/architecture.md#proof-of-absence: one slow account (writes finish after our timeout), two publishers and
 * two reconcilers, no other noise. A reconciler that read before the allowance passed would "prove" an
 * absence here and the release would publish a second copy.
 */
export const slowPlatformPlan: fc.Arbitrary<SimulationPlan> = fc
  .constantFrom<Platform>('x', 'mastodon', 'threads')
  .chain((platform) =>
    fc.record({
      accounts: fc.tuple(
        fc.record({
          platform: fc.constant(platform),
          profile: fc.constantFrom(...PROFILES[platform]),
          faults: fc.constant(NO_FAULT_RATES),
          slowShare: fc.constantFrom(0.5, 1),
          readLag: fc.boolean(),
          decoys: fc.constantFrom(0, 1),
          lateShare: fc.constant(0),
        }),
      ),
      posts: fc.constantFrom([[0]], [[0], [0]]),
      latenessLimitSeconds: fc.constant(3600),
      actors: fc.shuffledSubarray<ActorPlan>(
        [
          { kind: 'publisher', passes: 2, batchSize: 1, concurrency: 1, crashAt: null },
          { kind: 'publisher', passes: 2, batchSize: 2, concurrency: 1, crashAt: null },
          { kind: 'reconciler', passes: 3, crashAt: null },
          { kind: 'reconciler', passes: 3, crashAt: null },
          { kind: 'time-jump' },
        ],
        { minLength: 3 },
      ),
      randomSeed: fc.integer(),
    }),
  );

/**
 * A platform that finishes writes past the allowance (docs/architecture.md#late-copies): two reads can then "prove"
 * an absence that is not one, and the release publishes again. Nothing can prevent that second copy; the watch must
 * catch it: never "sent" with two copies, always in review with both listed.
 */
export const latePlatformPlan: fc.Arbitrary<SimulationPlan> = fc
  .constantFrom<Platform>('x', 'mastodon')
  .chain((platform) =>
    fc.record({
      accounts: fc.tuple(
        fc.record({
          platform: fc.constant(platform),
          profile: fc.constantFrom(...PROFILES[platform].slice(0, 2)),
          faults: fc.constant(NO_FAULT_RATES),
          slowShare: fc.constant(0),
          readLag: fc.constant(false),
          decoys: fc.constant(0),
          lateShare: fc.constantFrom(0.5, 1),
        }),
      ),
      posts: fc.constantFrom([[0]], [[0], [0]]),
      latenessLimitSeconds: fc.constant(3600),
      actors: fc.shuffledSubarray<ActorPlan>(
        [
          { kind: 'publisher', passes: 2, batchSize: 1, concurrency: 1, crashAt: null },
          { kind: 'reconciler', passes: 3, crashAt: null },
          { kind: 'reconciler', passes: 3, crashAt: null },
          { kind: 'watcher', passes: 2, crashAt: null },
          { kind: 'time-jump' },
          { kind: 'time-jump' },
        ],
        { minLength: 4 },
      ),
      randomSeed: fc.integer(),
    }),
  );

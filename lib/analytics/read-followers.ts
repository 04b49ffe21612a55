import type { Database } from '@/db/client';
import {
  addFollowerReads,
  claimDueFollowerReads,
  recordFollowerRead,
  releaseFollowerRead,
  type DueFollowerRead,
} from '@/db/queries/follower-counts';
import { logger } from '@/lib/logging/logger';
import { providerClientForAccount, ProviderReadError, type ProviderTransport } from '@/lib/providers';
import { takeReadBudget, type ReadBudgetOptions } from '@/lib/read-budget/take';
import { nextFollowerRead, retryDelayMs, utcDay } from './schedule';

export type FollowerSummary = { claimed: number; recorded: number; deferred: number; unsupported: number };

/**
 * Each connected account's follower count, once a UTC day: claimed like a reading, one platform call taken from the
 * read budget first, recorded once per account and day (follower_snapshots_pk). A network that gives no count to the
 * account (a LinkedIn member) is not read again.
 */
export async function readFollowerCounts(
  db: Database,
  options: {
    workerId: string;
    batchSize: number;
    leaseMs: number;
    readTimeoutMs: number;
    readBudget: ReadBudgetOptions;
    encryptionKey: string;
    origin?: string;
    transport?: ProviderTransport;
    now: () => Date;
  },
): Promise<FollowerSummary> {
  const summary: FollowerSummary = { claimed: 0, recorded: 0, deferred: 0, unsupported: 0 };
  await addFollowerReads(db);
  const due = await claimDueFollowerReads(db, {
    workerId: options.workerId,
    limit: options.batchSize,
    leaseMs: options.leaseMs,
  });
  summary.claimed = due.length;
  await Promise.all(
    due.map(async (account) => {
      const outcome = await readOne(db, account, options).catch((error) => {
        logger.error({ accountId: account.accountId, err: error }, 'follower read failed');
        return null; // the lease runs out and the account is read again
      });
      if (outcome) summary[outcome]++;
    }),
  );
  return summary;
}

async function readOne(
  db: Database,
  account: DueFollowerRead,
  options: Parameters<typeof readFollowerCounts>[1],
): Promise<'recorded' | 'deferred' | 'unsupported'> {
  const fence = { accountId: account.accountId, generation: account.generation };
  const at = options.now();
  const later = async (dueAt: Date) => (await releaseFollowerRead(db, { ...fence, dueAt }), 'deferred' as const);
  if (!account.readable) return later(nextFollowerRead(at));
  const client = providerClientForAccount(
    { ...account, id: account.accountId },
    { encryptionKey: options.encryptionKey, origin: options.origin, transport: options.transport },
  );
  if (!client.readFollowers) {
    await recordFollowerRead(db, { ...fence, day: utcDay(at), followers: null, nextDueAt: at });
    return 'unsupported';
  }
  const grant = await takeReadBudget(
    db,
    { account: { ...account, id: account.accountId }, calls: 1, purpose: 'followers' },
    options.readBudget,
  );
  if (!grant.granted) return later(grant.retryAt);
  let followers: number | null;
  try {
    followers = await client.readFollowers({ timeoutMs: options.readTimeoutMs });
  } catch (error) {
    if (!(error instanceof ProviderReadError)) throw error;
    return later(new Date(at.getTime() + retryDelayMs(2)));
  }
  await recordFollowerRead(db, { ...fence, day: utcDay(at), followers, nextDueAt: nextFollowerRead(at) });
  return followers === null ? 'unsupported' : 'recorded';
}

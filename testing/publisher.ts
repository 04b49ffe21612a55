import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { attempts, deliveries } from '@/db/schema';
import { TEST_ENCRYPTION_KEY } from './keys';
import type { PublisherOptions } from '@/lib/publishing/config';
import { allowanceFor } from '@/lib/reconcile/allowance-map';

/** Tests read the platform as soon as a call has timed out (the sandbox creates posts within the call unless told otherwise). */
export const NO_ALLOWANCE = allowanceFor(0);

export function testPublisherOptions(origin: string, overrides: Partial<PublisherOptions> = {}): PublisherOptions {
  return {
    workerId: `test-${randomUUID().slice(0, 8)}`,
    batchSize: 50,
    concurrency: 16,
    leaseMs: 30_000,
    callTimeoutMs: 1_000,
    budgetMs: 10_000,
    encryptionKey: TEST_ENCRYPTION_KEY,
    origin,
    rateLimits: {},
    allowanceMs: NO_ALLOWANCE,
    ...overrides,
  };
}

/** Posts due now (or at `scheduledAt`), one delivery each on the given account. */
export async function schedulePosts(
  db: Database,
  params: { workspaceId: string; accountId: string; count: number; label: string; scheduledAt?: Date },
) {
  const ids: string[] = [];
  for (let i = 0; i < params.count; i++) {
    const created = await insertPostWithDeliveries(db, {
      post: {
        workspaceId: params.workspaceId,
        text: `${params.label} #${i}`,
        scheduledAt: params.scheduledAt ?? new Date(),
        source: 'api',
        idempotencyKey: randomUUID(),
      },
      accountIds: [params.accountId],
      actor: 'test',
    });
    ids.push(created!.deliveries[0]!.id);
  }
  return ids;
}

export async function deliveryStates(db: Database, ids: string[]) {
  const rows = await db
    .select({
      id: deliveries.id,
      status: deliveries.status,
      externalId: deliveries.externalId,
      dueAt: deliveries.dueAt,
    })
    .from(deliveries)
    .where(inArray(deliveries.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function attemptCount(db: Database, deliveryId: string) {
  return (await db.select({ id: attempts.id }).from(attempts).where(eq(attempts.deliveryId, deliveryId))).length;
}

/**
 * A thread due now (or at `scheduledAt`) on the given accounts; `parts[k]` is the text of part k. Returns the
 * post id and, per account, its deliveries' ids in part order.
 */
export async function scheduleThread(
  db: Database,
  params: { workspaceId: string; accountIds: string[]; parts: string[]; scheduledAt?: Date },
) {
  const created = await insertPostWithDeliveries(db, {
    post: {
      workspaceId: params.workspaceId,
      kind: 'thread',
      text: params.parts[0]!,
      scheduledAt: params.scheduledAt ?? new Date(),
      source: 'api',
      idempotencyKey: randomUUID(),
    },
    accountIds: params.accountIds,
    parts: params.parts,
    actor: 'test',
  });
  const byAccount = new Map<string, string[]>();
  for (const d of [...created!.deliveries].sort((a, b) => a.part - b.part))
    byAccount.set(d.accountId, [...(byAccount.get(d.accountId) ?? []), d.id]);
  return { postId: created!.post.id, byAccount };
}

import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { insertPostMedia } from '@/db/queries/media';
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

/**
 * Many posts with one delivery each, round-robin over the accounts, in one statement whatever the count (the
 * benchmark and the cost budget): texts `${label}#0`, `${label}#1` …, due from `firstDueAt` every `stepMs`.
 */
export async function scheduleDueInBulk(
  db: Database,
  params: { workspaceId: string; accountIds: string[]; count: number; label: string; firstDueAt: Date; stepMs: number },
) {
  await db.execute(sql`
    with p as (
      insert into posts (workspace_id, text, scheduled_at, source, idempotency_key)
      select ${params.workspaceId}::uuid, ${params.label + '#'} || i,
        ${params.firstDueAt.toISOString()}::timestamptz + make_interval(secs => i * ${params.stepMs / 1000}::float8),
        'api', gen_random_uuid()::text
      from generate_series(0, ${params.count - 1}) i
      returning id, workspace_id, scheduled_at, split_part(text, '#', 2)::int as i
    ), d as (
      insert into deliveries (workspace_id, post_id, account_id, due_at)
      select p.workspace_id, p.id, (${JSON.stringify(params.accountIds)}::jsonb ->> (p.i % ${params.accountIds.length}))::uuid,
        p.scheduled_at from p
      returning id, workspace_id
    )
    insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
    select workspace_id, id, null, 'scheduled', 'bulk', 'created' from d`);
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

/** A post due now on one account showing these images (already stored and in `media`); its one delivery's id. */
export async function schedulePostWithMedia(
  db: Database,
  params: {
    workspaceId: string;
    accountId: string;
    text: string;
    mediaIds: string[];
    /** The account's post options (deliveries.options: TikTok's privacy level), as a create stores them. */
    options?: Record<string, unknown>;
  },
) {
  const created = await insertPostWithDeliveries(db, {
    post: {
      workspaceId: params.workspaceId,
      text: params.text,
      scheduledAt: new Date(),
      source: 'api',
      idempotencyKey: randomUUID(),
    },
    accountIds: [params.accountId],
    actor: 'test',
    ...(params.options ? { options: new Map([[params.accountId.toLowerCase(), params.options]]) } : {}),
  });
  await insertPostMedia(db, { postId: created!.post.id, mediaIds: params.mediaIds });
  return created!.deliveries[0]!.id;
}

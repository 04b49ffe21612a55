import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { deliveries, deliveryEvents, posts, socialAccounts, type DeliveryStatus, type NewPost } from '../schema';

export async function getTargetAccounts(db: Executor, params: { workspaceId: string; accountIds: string[] }) {
  if (params.accountIds.length === 0) return [];
  return db
    .select({ id: socialAccounts.id, provider: socialAccounts.provider, handle: socialAccounts.handle, disconnectedAt: socialAccounts.disconnectedAt })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.workspaceId, params.workspaceId), inArray(socialAccounts.id, params.accountIds)));
}

/** The post, one delivery per account, and each delivery's first history row — in the caller's transaction. */
export async function insertPostWithDeliveries(db: Executor, params: { post: NewPost; accountIds: string[]; actor: string; requestId?: string }) {
  const [post] = await db.insert(posts).values(params.post)
    .onConflictDoNothing({ target: [posts.workspaceId, posts.idempotencyKey] })
    .returning();
  // The key already named a post (its idempotency record expired and was pruned): nothing is written.
  if (!post) return null;
  const rows = await addDeliveries(db, {
    workspaceId: post.workspaceId, postId: post.id, accountIds: params.accountIds, dueAt: post.scheduledAt, actor: params.actor,
    reason: 'created', detail: { source: post.source, idempotencyKey: post.idempotencyKey, ...(params.requestId ? { requestId: params.requestId } : {}) },
  });
  return { post, deliveries: rows };
}

const deliveryColumns = {
  id: deliveries.id,
  postId: deliveries.postId,
  accountId: deliveries.accountId,
  status: deliveries.status,
  externalId: deliveries.externalId,
  url: deliveries.externalUrl,
  failureReason: deliveries.failureReason,
  dueAt: deliveries.dueAt,
  accountHandle: socialAccounts.handle,
  accountProvider: socialAccounts.provider,
};

export async function getPostWithDeliveries(db: Executor, params: { workspaceId: string; postId: string }) {
  const [post] = await db.select().from(posts).where(and(eq(posts.id, params.postId), eq(posts.workspaceId, params.workspaceId)));
  if (!post) return null;
  const rows = await db
    .select(deliveryColumns)
    .from(deliveries)
    .innerJoin(socialAccounts, eq(socialAccounts.id, deliveries.accountId))
    .where(and(eq(deliveries.postId, post.id), eq(deliveries.workspaceId, params.workspaceId)))
    .orderBy(socialAccounts.handle);
  return { post, deliveries: rows };
}

export type PostCursor = { createdAt: Date; id: string };
// Cursors carry JS dates (milliseconds); compare at that precision so no row is skipped or repeated.
const createdMs = sql<Date>`date_trunc('milliseconds', ${posts.createdAt})`;

/** Newest first, keyset-paginated on (createdAt, id); optionally only posts with a delivery in a status / to an account. */
export async function listPosts(
  db: Executor,
  params: { workspaceId: string; status?: DeliveryStatus; accountId?: string; cursor?: PostCursor; limit: number },
) {
  const deliveryFilter = params.status || params.accountId
    ? sql`exists (select 1 from ${deliveries} d where d.post_id = ${posts.id}
        ${params.status ? sql`and d.status = ${params.status}` : sql``}
        ${params.accountId ? sql`and d.account_id = ${params.accountId}` : sql``})`
    : undefined;
  const page = await db
    .select()
    .from(posts)
    .where(and(
      eq(posts.workspaceId, params.workspaceId),
      deliveryFilter,
      params.cursor
        ? sql`(${createdMs}, ${posts.id}) < (${params.cursor.createdAt.toISOString()}::timestamptz, ${params.cursor.id}::uuid)`
        : undefined,
    ))
    .orderBy(desc(createdMs), desc(posts.id))
    .limit(params.limit);
  if (page.length === 0) return [];
  const rows = await db
    .select(deliveryColumns)
    .from(deliveries)
    .innerJoin(socialAccounts, eq(socialAccounts.id, deliveries.accountId))
    .where(and(eq(deliveries.workspaceId, params.workspaceId), inArray(deliveries.postId, page.map((p) => p.id))));
  return page.map((post) => ({ post, deliveries: rows.filter((d) => d.postId === post.id) }));
}

/** Soft duplicate check: the same normalised text already going to one of these accounts since `since`. */
export async function findRecentSameText(db: Executor, params: { workspaceId: string; accountIds: string[]; normalisedText: string; since: Date }) {
  return db
    .select({ postId: posts.id, accountId: deliveries.accountId, scheduledAt: posts.scheduledAt })
    .from(posts)
    .innerJoin(deliveries, eq(deliveries.postId, posts.id))
    .where(and(
      eq(posts.workspaceId, params.workspaceId),
      inArray(deliveries.accountId, params.accountIds),
      gt(posts.createdAt, params.since),
      sql`${deliveries.status} <> 'canceled'`,
      sql`btrim(regexp_replace(normalize(${posts.text}, NFC), '\\s+', ' ', 'g')) = ${params.normalisedText}`,
    ))
    .limit(5);
}

/**
 * Cancels the post's deliveries that are still `scheduled` and not claimed — one conditional
 * statement, so it cannot race the publisher into "canceled but published". Returns the canceled ids.
 */
export async function cancelScheduledDeliveries(db: Executor, params: { workspaceId: string; postId: string; actor: string }) {
  const rows = await db.execute<{ delivery_id: string }>(sql`
    with canceled as (
      update ${deliveries} set status = 'canceled', settled_at = now(), updated_at = now()
      where post_id = ${params.postId} and workspace_id = ${params.workspaceId} and status = 'scheduled'
        and not exists (select 1 from claims c where c.delivery_id = deliveries.id and c.released_at is null)
      returning id, workspace_id
    )
    insert into ${deliveryEvents} (workspace_id, delivery_id, from_status, to_status, actor, reason)
    select workspace_id, id, 'scheduled', 'canceled', ${params.actor}, 'canceled by request' from canceled
    returning delivery_id`);
  return [...rows].map((r) => r.delivery_id);
}

/**
 * Locks the post's deliveries (FOR UPDATE) for an edit, with whether each is claimed. The publisher
 * claims with SKIP LOCKED, so while an edit holds these rows it cannot claim them, and an edit that
 * waits for a claim sees the delivery as publishing afterwards.
 */
export async function lockDeliveriesForEdit(db: Executor, params: { workspaceId: string; postId: string }) {
  const result = await db.execute<{ id: string; status: DeliveryStatus; accountId: string; claimed: boolean; mayBeLive: boolean }>(sql`
    select d.id, d.status, d.account_id as "accountId",
      exists (select 1 from claims c where c.delivery_id = d.id and c.released_at is null) as claimed,
      exists (select 1 from attempts a where a.delivery_id = d.id and a.outcome = 'ambiguous') as "mayBeLive"
    from deliveries d
    where d.post_id = ${params.postId} and d.workspace_id = ${params.workspaceId}
    order by d.id
    for update of d`);
  return [...result];
}

export async function updatePostContent(db: Executor, params: { workspaceId: string; postId: string; text: string; scheduledAt: Date }) {
  await db.update(posts).set({ text: params.text, scheduledAt: params.scheduledAt, updatedAt: new Date() })
    .where(and(eq(posts.id, params.postId), eq(posts.workspaceId, params.workspaceId)));
}

/** Re-times the still-scheduled deliveries and removes (cancels) targets dropped by an edit, with history rows. */
export async function applyEditToDeliveries(db: Executor, params: { workspaceId: string; postId: string; dueAt: Date; keep: string[]; remove: string[]; actor: string }) {
  if (params.keep.length) {
    await db.update(deliveries).set({ dueAt: params.dueAt, updatedAt: new Date() })
      .where(and(eq(deliveries.workspaceId, params.workspaceId), inArray(deliveries.id, params.keep)));
    await db.insert(deliveryEvents).values(params.keep.map((id) => ({ workspaceId: params.workspaceId, deliveryId: id, fromStatus: 'scheduled' as const, toStatus: 'scheduled' as const, actor: params.actor, reason: 'edited' })));
  }
  if (params.remove.length) {
    await db.update(deliveries).set({ status: 'canceled', settledAt: new Date(), updatedAt: new Date() })
      .where(and(eq(deliveries.workspaceId, params.workspaceId), inArray(deliveries.id, params.remove)));
    await db.insert(deliveryEvents).values(params.remove.map((id) => ({ workspaceId: params.workspaceId, deliveryId: id, fromStatus: 'scheduled' as const, toStatus: 'canceled' as const, actor: params.actor, reason: 'account removed by an edit' })));
  }
}

/** New deliveries (one per account) and their first history row. */
export async function addDeliveries(
  db: Executor,
  params: { workspaceId: string; postId: string; accountIds: string[]; dueAt: Date; actor: string; reason: string; detail?: Record<string, unknown> },
) {
  if (params.accountIds.length === 0) return [];
  const rows = await db.insert(deliveries)
    .values(params.accountIds.map((accountId) => ({ workspaceId: params.workspaceId, postId: params.postId, accountId, dueAt: params.dueAt })))
    .returning();
  await db.insert(deliveryEvents).values(rows.map((r) => ({
    workspaceId: params.workspaceId, deliveryId: r.id, fromStatus: null, toStatus: 'scheduled' as const, actor: params.actor, reason: params.reason, detail: params.detail ?? null,
  })));
  return rows;
}

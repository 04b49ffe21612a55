import { and, asc, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import {
  deliveries,
  postParts,
  posts,
  socialAccounts,
  type DeliveryStatus,
  type NewPost,
  type Post,
  type PostLinkOptions,
} from '../schema';
import { addDeliveries } from './deliveries/add';
import { getPartMediaOf } from './media';
import { variantFirstCommentColumn, variantTextColumn } from './post-variants';
import { jsonb } from './sql-params';

export async function getTargetAccounts(db: Executor, params: { workspaceId: string; accountIds: string[] }) {
  if (params.accountIds.length === 0) return [];
  return db
    .select({
      id: socialAccounts.id,
      provider: socialAccounts.provider,
      handle: socialAccounts.handle,
      disconnectedAt: socialAccounts.disconnectedAt,
    })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.workspaceId, params.workspaceId), inArray(socialAccounts.id, params.accountIds)));
}

/**
 * The post, one delivery per account (for a thread: its parts, and one delivery per account and part), and each
 * delivery's first history row — in the caller's transaction.
 */
export async function insertPostWithDeliveries(
  db: Executor,
  params: {
    post: NewPost;
    accountIds: string[];
    actor: string;
    requestId?: string;
    parts?: string[];
    status?: 'scheduled' | 'draft' | 'awaiting_approval';
    /** Each account's chosen format, keyed by the account id in lower case. */
    formats?: ReadonlyMap<string, string>;
    /** Each account's options (its network's schema, checked), keyed by the account id in lower case. */
    options?: ReadonlyMap<string, Record<string, unknown>>;
    /** The accounts (lower-case ids) that publish the post's first comment: they get a part 1 delivery too. */
    firstCommentAccounts?: ReadonlySet<string>;
  },
) {
  const [post] = await db
    .insert(posts)
    .values(params.post)
    .onConflictDoNothing({ target: [posts.workspaceId, posts.idempotencyKey] })
    .returning();
  // The key already named a post (its idempotency record expired and was pruned): nothing is written.
  if (!post) return null;
  const parts = params.parts ?? [];
  if (parts.length > 0)
    await db.insert(postParts).values(parts.map((text, position) => ({ postId: post.id, position, text })));
  const rows = await addDeliveries(db, {
    workspaceId: post.workspaceId,
    postId: post.id,
    accountIds: params.accountIds,
    parts: parts.length > 0 ? parts.map((_, position) => position) : undefined,
    partsByAccount: params.firstCommentAccounts
      ? new Map([...params.firstCommentAccounts].map((id) => [id, [0, 1]]))
      : undefined,
    dueAt: post.scheduledAt,
    status: params.status,
    formats: params.formats,
    options: params.options,
    actor: params.actor,
    reason: 'created',
    detail: {
      source: post.source,
      idempotencyKey: post.idempotencyKey,
      ...(params.requestId ? { requestId: params.requestId } : {}),
    },
  });
  return { post, deliveries: rows, parts };
}

/** A thread's part texts by position (empty for other kinds), for each of these posts. */
async function getPartsOf(db: Executor, page: Post[]): Promise<Map<string, string[]>> {
  const threads = page.filter((p) => p.kind === 'thread').map((p) => p.id);
  const byPost = new Map<string, string[]>();
  if (threads.length === 0) return byPost;
  const rows = await db
    .select()
    .from(postParts)
    .where(inArray(postParts.postId, threads))
    .orderBy(asc(postParts.postId), asc(postParts.position));
  for (const row of rows) byPost.set(row.postId, [...(byPost.get(row.postId) ?? []), row.text]);
  return byPost;
}

/** Replaces a thread's parts (an edit, while no part is claimed); part 0's text is also the post's text. */
export async function replacePostParts(db: Executor, params: { workspaceId: string; postId: string; parts: string[] }) {
  const [owned] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, params.postId), eq(posts.workspaceId, params.workspaceId)));
  if (!owned) return;
  await db.delete(postParts).where(eq(postParts.postId, params.postId));
  await db.insert(postParts).values(params.parts.map((text, position) => ({ postId: params.postId, position, text })));
}

const deliveryColumns = {
  id: deliveries.id,
  postId: deliveries.postId,
  accountId: deliveries.accountId,
  part: deliveries.part,
  status: deliveries.status,
  externalId: deliveries.externalId,
  url: deliveries.externalUrl,
  failureReason: deliveries.failureReason,
  dueAt: deliveries.dueAt,
  /** The account's own text (post_variants), or null when it publishes the post's text. */
  variantText: variantTextColumn,
  /** The account's own first comment (post_variants), or null when it publishes the post's (if any). */
  variantFirstComment: variantFirstCommentColumn,
  format: deliveries.format,
  options: deliveries.options,
  accountHandle: socialAccounts.handle,
  accountProvider: socialAccounts.provider,
  /** The account's token needs a reconnect: its scheduled deliveries are held (not claimed) until then. */
  accountNeedsReconnect: sql<boolean>`(${socialAccounts.disconnectedAt} is null and (${socialAccounts.tokenStatus} <> 'ok'
    or coalesce(${socialAccounts.tokenExpiresAt} <= now(), false)))`,
};

export async function getPostWithDeliveries(db: Executor, params: { workspaceId: string; postId: string }) {
  const [post] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.id, params.postId), eq(posts.workspaceId, params.workspaceId)));
  if (!post) return null;
  const rows = await db
    .select(deliveryColumns)
    .from(deliveries)
    .innerJoin(socialAccounts, eq(socialAccounts.id, deliveries.accountId))
    .where(and(eq(deliveries.postId, post.id), eq(deliveries.workspaceId, params.workspaceId)))
    .orderBy(socialAccounts.handle, deliveries.accountId, deliveries.part);
  const parts = (await getPartsOf(db, [post])).get(post.id) ?? [];
  const partMedia = (await getPartMediaOf(db, [post])).get(post.id) ?? [];
  return { post, deliveries: rows, parts, partMedia };
}

export type PostCursor = { createdAt: Date; id: string };
// Cursors carry JS dates (milliseconds); compare at that precision so no row is skipped or repeated.
const createdMs = sql<Date>`date_trunc('milliseconds', ${posts.createdAt})`;

/** Newest first, keyset-paginated on (createdAt, id); optionally only posts with a delivery in a status / to an account. */
export async function listPosts(
  db: Executor,
  params: { workspaceId: string; status?: DeliveryStatus; accountId?: string; cursor?: PostCursor; limit: number },
) {
  const deliveryFilter =
    params.status || params.accountId
      ? sql`exists (select 1 from ${deliveries} d where d.post_id = ${posts.id}
        ${params.status ? sql`and d.status = ${params.status}` : sql``}
        ${params.accountId ? sql`and d.account_id = ${params.accountId}` : sql``})`
      : undefined;
  const page = await db
    .select()
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, params.workspaceId),
        deliveryFilter,
        params.cursor
          ? sql`(${createdMs}, ${posts.id}) < (${params.cursor.createdAt.toISOString()}::timestamptz, ${params.cursor.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(createdMs), desc(posts.id))
    .limit(params.limit);
  if (page.length === 0) return [];
  const rows = await db
    .select(deliveryColumns)
    .from(deliveries)
    .innerJoin(socialAccounts, eq(socialAccounts.id, deliveries.accountId))
    .where(
      and(
        eq(deliveries.workspaceId, params.workspaceId),
        inArray(
          deliveries.postId,
          page.map((p) => p.id),
        ),
      ),
    );
  const parts = await getPartsOf(db, page);
  const partMedia = await getPartMediaOf(db, page);
  return page.map((post) => ({
    post,
    deliveries: rows.filter((d) => d.postId === post.id),
    parts: parts.get(post.id) ?? [],
    partMedia: partMedia.get(post.id) ?? [],
  }));
}

/** A position in (scheduledAt, id) order; the time as Postgres prints it, so microseconds survive the round trip. */
export type RangeCursor = { scheduledAt: string; id: string };
export const RANGE_CURSOR_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/**
 * The posts scheduled in `[from, to)`, in (scheduledAt, id) order, each with its deliveries and their accounts;
 * optionally only posts with a delivery in a status / to an account. One range scan of
 * posts_workspace_scheduled_idx, then one read of the page's deliveries (deliveries_post_account_uq).
 */
export async function listPostsInRange(
  db: Executor,
  params: {
    workspaceId: string;
    from: Date;
    to: Date;
    status?: DeliveryStatus;
    accountId?: string;
    after?: RangeCursor;
    limit: number;
  },
) {
  const deliveryFilter =
    params.status || params.accountId
      ? sql`exists (select 1 from ${deliveries} d where d.post_id = ${posts.id}
        ${params.status ? sql`and d.status = ${params.status}` : sql``}
        ${params.accountId ? sql`and d.account_id = ${params.accountId}` : sql``})`
      : undefined;
  const page = await db
    .select({ post: posts, position: sql<string>`${posts.scheduledAt}::text` })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, params.workspaceId),
        gte(posts.scheduledAt, params.from),
        lt(posts.scheduledAt, params.to),
        deliveryFilter,
        params.after
          ? sql`(${posts.scheduledAt}, ${posts.id}) > (${params.after.scheduledAt}::timestamptz, ${params.after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(posts.scheduledAt), asc(posts.id))
    .limit(params.limit);
  if (page.length === 0) return [];
  const rows = await db
    .select({ ...deliveryColumns, accountDisplayName: socialAccounts.displayName })
    .from(deliveries)
    .innerJoin(socialAccounts, eq(socialAccounts.id, deliveries.accountId))
    .where(
      and(
        eq(deliveries.workspaceId, params.workspaceId),
        // One array parameter, not one per post: a month can hold a thousand posts or more.
        sql`${deliveries.postId} = any(${sql.param(page.map((p) => p.post.id))}::uuid[])`,
      ),
    )
    .orderBy(socialAccounts.handle, deliveries.accountId, deliveries.part);
  const byPost = Map.groupBy(rows, (d) => d.postId);
  const parts = await getPartsOf(
    db,
    page.map((p) => p.post),
  );
  const partMedia = await getPartMediaOf(
    db,
    page.map((p) => p.post),
  );
  return page.map(({ post, position }) => ({
    post,
    deliveries: byPost.get(post.id) ?? [],
    parts: parts.get(post.id) ?? [],
    partMedia: partMedia.get(post.id) ?? [],
    cursor: { scheduledAt: position, id: post.id } satisfies RangeCursor,
  }));
}

/**
 * Soft duplicate check: the same normalised text already going to one of these accounts since `since`, each
 * account compared with the text it gets (its variant, else the post's text). Drafts and canceled ones go nowhere.
 */
export async function findRecentSameText(
  db: Executor,
  params: { workspaceId: string; texts: { accountId: string; normalisedText: string }[]; since: Date },
) {
  const effectiveText = sql`coalesce(${variantTextColumn}, ${posts.text})`;
  return db
    .select({ postId: posts.id, accountId: deliveries.accountId, scheduledAt: posts.scheduledAt })
    .from(posts)
    .innerJoin(deliveries, eq(deliveries.postId, posts.id))
    .where(
      and(
        eq(posts.workspaceId, params.workspaceId),
        inArray(
          deliveries.accountId,
          params.texts.map((t) => t.accountId),
        ),
        gt(posts.createdAt, params.since),
        sql`${deliveries.status} not in ('canceled', 'draft')`,
        // A thread is compared by its first part (the post's text); its other parts are not posts of their own.
        eq(deliveries.part, 0),
        sql`(${deliveries.accountId}, btrim(regexp_replace(normalize(${effectiveText}, NFC), '\\s+', ' ', 'g'))) in
          (select (t->>'accountId')::uuid, t->>'normalisedText' from jsonb_array_elements(${jsonb(params.texts)}) t)`,
      ),
    )
    .limit(5);
}

export async function updatePostContent(
  db: Executor,
  params: {
    workspaceId: string;
    postId: string;
    text: string;
    firstComment?: string | null;
    links?: PostLinkOptions;
    scheduledAt: Date;
  },
) {
  await db
    .update(posts)
    .set({
      text: params.text,
      ...(params.firstComment !== undefined ? { firstComment: params.firstComment } : {}),
      ...(params.links !== undefined ? { links: params.links } : {}),
      scheduledAt: params.scheduledAt,
      updatedAt: new Date(),
      revision: sql`${posts.revision} + 1`,
    })
    .where(and(eq(posts.id, params.postId), eq(posts.workspaceId, params.workspaceId)));
}

import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { media, postRequests, requestLinks, socialAccounts } from '../schema';

export async function insertRequestLink(
  db: Executor,
  params: {
    workspaceId: string;
    secretHash: string;
    label: string;
    createdByUserId: string | null;
    expiresAt?: Date | null;
  },
) {
  const [row] = await db.insert(requestLinks).values(params).returning({ id: requestLinks.id });
  return row!;
}

export async function getRequestLink(db: Executor, params: { id: string }) {
  const [row] = await db.select().from(requestLinks).where(eq(requestLinks.id, params.id));
  return row ?? null;
}

/** Links not revoked, newest first (never the secret's hash). */
export async function listActiveRequestLinks(db: Executor, params: { workspaceId: string }) {
  return db
    .select({ id: requestLinks.id, label: requestLinks.label, createdAt: requestLinks.createdAt })
    .from(requestLinks)
    .where(and(eq(requestLinks.workspaceId, params.workspaceId), isNull(requestLinks.revokedAt)))
    .orderBy(desc(requestLinks.createdAt));
}

/** Revokes a link of this workspace; repeating it changes nothing. Returns whether the link exists here. */
export async function revokeRequestLink(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = await db
    .update(requestLinks)
    .set({ revokedAt: sql`coalesce(${requestLinks.revokedAt}, now())` })
    .where(and(eq(requestLinks.id, params.id), eq(requestLinks.workspaceId, params.workspaceId)))
    .returning({ id: requestLinks.id, label: requestLinks.label });
  return row ?? null;
}

/**
 * Takes the form's key for this link (post_requests_link_key_uq): the new row, or null when the key is taken — a
 * parallel submit waits here for the first one's transaction and then gets null (its replay).
 */
export async function claimPostRequest(
  db: Executor,
  row: {
    workspaceId: string;
    requestLinkId: string;
    key: string;
    requesterName: string;
    note: string | null;
    preferredAt: Date | null;
  },
) {
  const [inserted] = await db
    .insert(postRequests)
    .values(row)
    .onConflictDoNothing({ target: [postRequests.requestLinkId, postRequests.key] })
    .returning({ id: postRequests.id });
  return inserted ?? null;
}

export async function setPostRequestPost(db: Executor, params: { id: string; postId: string }) {
  await db.update(postRequests).set({ postId: params.postId }).where(eq(postRequests.id, params.id));
}

export async function getPostRequestByKey(db: Executor, params: { requestLinkId: string; key: string }) {
  const [row] = await db
    .select()
    .from(postRequests)
    .where(and(eq(postRequests.requestLinkId, params.requestLinkId), eq(postRequests.key, params.key)));
  return row ?? null;
}

/** Who asked for each of these posts (client requests), by post id. */
export async function listRequestsForPosts(db: Executor, params: { workspaceId: string; postIds: string[] }) {
  if (params.postIds.length === 0) return new Map<string, { requesterName: string; note: string | null }>();
  const rows = await db
    .select({ postId: postRequests.postId, requesterName: postRequests.requesterName, note: postRequests.note })
    .from(postRequests)
    .where(and(eq(postRequests.workspaceId, params.workspaceId), inArray(postRequests.postId, params.postIds)));
  return new Map(rows.map((r) => [r.postId!, { requesterName: r.requesterName, note: r.note }]));
}

/** The workspace's connected accounts: a request's draft goes to each (the team narrows it when scheduling). */
export async function listRequestTargetAccounts(db: Executor, params: { workspaceId: string }) {
  const rows = await db
    .select({ id: socialAccounts.id })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.workspaceId, params.workspaceId), isNull(socialAccounts.disconnectedAt)))
    .orderBy(socialAccounts.handle);
  return rows.map((r) => r.id);
}

/** Of these media ids, the ones uploaded through this request link in this workspace (a client attaches only its own). */
export async function listLinkUploads(
  db: Executor,
  params: { workspaceId: string; requestLinkId: string; mediaIds: string[] },
) {
  if (params.mediaIds.length === 0) return [];
  const rows = await db
    .select({ id: media.id })
    .from(media)
    .where(
      and(
        eq(media.workspaceId, params.workspaceId),
        eq(media.createdBy, `request_link:${params.requestLinkId}`),
        inArray(media.id, params.mediaIds),
      ),
    );
  return rows.map((r) => r.id);
}

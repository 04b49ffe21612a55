import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../client';
import { sandboxAccounts, sandboxFaults, sandboxIdempotencyKeys, sandboxPosts } from '../sandbox-schema';
import { socialAccounts } from '../schema';

// The sandbox network's own tables (schema `sandbox`). Only the two "workspace" queries at the end read
// product tables, to find which sandbox accounts a workspace may see.

type Platform = 'x' | 'mastodon';
type PostKind = 'post' | 'reply' | 'dm';

const accountColumns = {
  id: sandboxAccounts.id,
  platform: sandboxAccounts.platform,
  platformUserId: sandboxAccounts.platformUserId,
  handle: sandboxAccounts.handle,
  displayName: sandboxAccounts.displayName,
};

export async function getSandboxAccountByTokenHash(db: Executor, params: { platform: Platform; tokenHash: string }) {
  const [row] = await db.select(accountColumns).from(sandboxAccounts)
    .where(and(eq(sandboxAccounts.platform, params.platform), eq(sandboxAccounts.tokenHash, params.tokenHash)));
  return row ?? null;
}

export async function getSandboxAccountById(db: Executor, params: { id: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(params.id)) return null;
  const [row] = await db.select(accountColumns).from(sandboxAccounts).where(eq(sandboxAccounts.id, params.id));
  return row ?? null;
}

export async function getSandboxAccountByUserId(db: Executor, params: { platform: Platform; platformUserId: string }) {
  const [row] = await db.select(accountColumns).from(sandboxAccounts)
    .where(and(eq(sandboxAccounts.platform, params.platform), eq(sandboxAccounts.platformUserId, params.platformUserId)));
  return row ?? null;
}

/** Registers a platform user; an existing (platform, user id) keeps its token. Returns the stored account. */
export async function registerSandboxAccount(db: Executor, params: { platform: Platform; platformUserId: string; handle: string; displayName?: string | null; tokenHash: string }) {
  await db.insert(sandboxAccounts).values(params).onConflictDoNothing();
  return getSandboxAccountByUserId(db, params);
}

export async function listSandboxAccounts(db: Executor) {
  return db.select(accountColumns).from(sandboxAccounts).orderBy(asc(sandboxAccounts.handle));
}

export async function getSandboxFaults(db: Executor, params: { accountId: string }) {
  const [row] = await db.select().from(sandboxFaults).where(eq(sandboxFaults.accountId, params.accountId));
  return row ?? null;
}

export async function listSandboxFaults(db: Executor, params: { accountIds: string[] }) {
  if (params.accountIds.length === 0) return [];
  return db.select().from(sandboxFaults).where(inArray(sandboxFaults.accountId, params.accountIds));
}

export type FaultValues = Omit<typeof sandboxFaults.$inferInsert, 'accountId' | 'updatedAt'>;

export async function upsertSandboxFaults(db: Executor, params: { accountIds: string[]; faults: FaultValues }) {
  if (params.accountIds.length === 0) return;
  const updatedAt = new Date();
  await db.insert(sandboxFaults)
    .values(params.accountIds.map((accountId) => ({ accountId, ...params.faults, updatedAt })))
    .onConflictDoUpdate({ target: sandboxFaults.accountId, set: { ...params.faults, updatedAt } });
}

/** Serialises writes to one account inside a transaction (X's duplicate-content check reads then inserts). */
export async function lockSandboxAccount(db: Executor, params: { accountId: string }) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${params.accountId}, 7270702))`);
}

export async function findSandboxDuplicate(db: Executor, params: { accountId: string; text: string; since: Date }) {
  const [row] = await db.select({ id: sandboxPosts.id }).from(sandboxPosts).where(and(
    eq(sandboxPosts.accountId, params.accountId),
    sql`md5(${sandboxPosts.text}) = md5(${params.text})`,
    eq(sandboxPosts.text, params.text),
    inArray(sandboxPosts.kind, ['post', 'reply']),
    gte(sandboxPosts.createdAt, params.since),
  )).limit(1);
  return row ?? null;
}

export async function insertSandboxPost(db: Executor, params: { accountId: string; kind: PostKind; text: string; inReplyToId?: string | null; recipientId?: string | null; idempotencyKey?: string | null }) {
  const [row] = await db.insert(sandboxPosts).values(params).returning();
  return row!;
}

export async function getSandboxPost(db: Executor, params: { id: number }) {
  const [row] = await db.select().from(sandboxPosts).where(eq(sandboxPosts.id, params.id));
  return row ?? null;
}

export type SandboxPostQuery = {
  accountId: string;
  kinds: PostKind[];
  startTime?: Date;
  endTime?: Date;
  /** Only ids below this (paging newest → oldest). */
  maxId?: number;
  /** Only ids above this. */
  sinceId?: number;
  limit: number;
};

/** Newest first. */
export async function listSandboxPosts(db: Executor, params: SandboxPostQuery) {
  const where: (SQL | undefined)[] = [
    eq(sandboxPosts.accountId, params.accountId),
    inArray(sandboxPosts.kind, params.kinds),
    params.startTime ? gte(sandboxPosts.createdAt, params.startTime) : undefined,
    params.endTime ? lte(sandboxPosts.createdAt, params.endTime) : undefined,
    params.maxId !== undefined ? lt(sandboxPosts.id, params.maxId) : undefined,
    params.sinceId !== undefined ? gt(sandboxPosts.id, params.sinceId) : undefined,
  ];
  return db.select().from(sandboxPosts).where(and(...where)).orderBy(desc(sandboxPosts.id)).limit(params.limit);
}

export async function countSandboxPosts(db: Executor, params: { accountIds: string[] }) {
  if (params.accountIds.length === 0) return [];
  return db.select({ accountId: sandboxPosts.accountId, total: count() }).from(sandboxPosts)
    .where(inArray(sandboxPosts.accountId, params.accountIds)).groupBy(sandboxPosts.accountId);
}

/** Mastodon keys expire after an hour; an expired key may be used again as new. */
export async function deleteExpiredSandboxIdempotencyKey(db: Executor, params: { accountId: string; key: string; createdBefore: Date }) {
  await db.delete(sandboxIdempotencyKeys).where(and(
    eq(sandboxIdempotencyKeys.accountId, params.accountId),
    eq(sandboxIdempotencyKeys.key, params.key),
    lt(sandboxIdempotencyKeys.createdAt, params.createdBefore),
  ));
}

/**
 * Takes the key or finds it taken. A concurrent holder's uncommitted row makes this wait for its
 * commit (unique constraint), so parallel requests with one key end up with one status.
 */
export async function claimSandboxIdempotencyKey(db: Executor, params: { accountId: string; key: string }) {
  const [row] = await db.insert(sandboxIdempotencyKeys).values(params).onConflictDoNothing().returning({ key: sandboxIdempotencyKeys.key });
  return Boolean(row);
}

export async function getSandboxIdempotencyKeyPost(db: Executor, params: { accountId: string; key: string }) {
  const [row] = await db.select({ postId: sandboxIdempotencyKeys.postId }).from(sandboxIdempotencyKeys)
    .where(and(eq(sandboxIdempotencyKeys.accountId, params.accountId), eq(sandboxIdempotencyKeys.key, params.key)));
  return row ?? null;
}

export async function setSandboxIdempotencyKeyPost(db: Executor, params: { accountId: string; key: string; postId: number }) {
  await db.update(sandboxIdempotencyKeys).set({ postId: params.postId })
    .where(and(eq(sandboxIdempotencyKeys.accountId, params.accountId), eq(sandboxIdempotencyKeys.key, params.key)));
}

/** A workspace's sandbox accounts (product id, handle) joined to the sandbox's own account rows. */
export async function listWorkspaceSandboxAccounts(db: Executor, params: { workspaceId: string }) {
  return db
    .select({
      accountId: socialAccounts.id,
      handle: socialAccounts.handle,
      disconnectedAt: socialAccounts.disconnectedAt,
      sandboxAccount: accountColumns,
    })
    .from(socialAccounts)
    .innerJoin(sandboxAccounts, and(
      sql`${sandboxAccounts.platform}::text = ${socialAccounts.provider}::text`,
      eq(sandboxAccounts.platformUserId, socialAccounts.platformUserId),
    ))
    .where(and(eq(socialAccounts.workspaceId, params.workspaceId), eq(socialAccounts.sandbox, true)))
    .orderBy(asc(socialAccounts.handle));
}

/**
 * Product sandbox accounts the sandbox has not registered yet (e.g. seeded before the sandbox existed).
 * Their sealed tokens are read only to register the token's hash on the sandbox side.
 */
export async function listUnregisteredProductSandboxAccounts(db: Executor) {
  return db
    .select({
      id: socialAccounts.id,
      provider: socialAccounts.provider,
      platformUserId: socialAccounts.platformUserId,
      handle: socialAccounts.handle,
      displayName: socialAccounts.displayName,
      credentialsEncrypted: socialAccounts.credentialsEncrypted,
    })
    .from(socialAccounts)
    .leftJoin(sandboxAccounts, and(
      sql`${sandboxAccounts.platform}::text = ${socialAccounts.provider}::text`,
      eq(sandboxAccounts.platformUserId, socialAccounts.platformUserId),
    ))
    .where(and(eq(socialAccounts.sandbox, true), inArray(socialAccounts.provider, ['x', 'mastodon']), isNull(sandboxAccounts.id)));
}

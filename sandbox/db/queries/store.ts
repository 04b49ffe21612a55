import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import type { ProviderName } from '@/db/schema';
import {
  sandboxAccounts,
  sandboxFaults,
  sandboxIdempotencyKeys,
  sandboxLocks,
  sandboxPosts,
} from '@/sandbox/db/schema';

// The sandbox network's own tables (schema `sandbox`) and nothing else: the queries that join them to the product's
// accounts are the product's glue (lib/sandbox/account-queries.ts).

type Platform = ProviderName;
type PostKind = 'post' | 'reply' | 'dm';

export const sandboxAccountColumns = {
  id: sandboxAccounts.id,
  platform: sandboxAccounts.platform,
  platformUserId: sandboxAccounts.platformUserId,
  handle: sandboxAccounts.handle,
  displayName: sandboxAccounts.displayName,
};

export async function getSandboxAccountByTokenHash(db: Executor, params: { platform: Platform; tokenHash: string }) {
  const [row] = await db
    .select(sandboxAccountColumns)
    .from(sandboxAccounts)
    .where(and(eq(sandboxAccounts.platform, params.platform), eq(sandboxAccounts.tokenHash, params.tokenHash)));
  return row ?? null;
}

export async function getSandboxAccountById(db: Executor, params: { id: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(params.id)) return null;
  const [row] = await db.select(sandboxAccountColumns).from(sandboxAccounts).where(eq(sandboxAccounts.id, params.id));
  return row ?? null;
}

/** Bluesky's resolveHandle: stored handles carry a leading "@"; handles compare case-insensitively. */
export async function getSandboxAccountByHandle(db: Executor, params: { platform: Platform; handle: string }) {
  const [row] = await db
    .select(sandboxAccountColumns)
    .from(sandboxAccounts)
    .where(
      and(
        eq(sandboxAccounts.platform, params.platform),
        sql`lower(ltrim(${sandboxAccounts.handle}, '@')) = lower(${params.handle.replace(/^@/, '')})`,
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function getSandboxAccountTokenHash(db: Executor, params: { id: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(params.id)) return null;
  const [row] = await db
    .select({ tokenHash: sandboxAccounts.tokenHash })
    .from(sandboxAccounts)
    .where(eq(sandboxAccounts.id, params.id));
  return row?.tokenHash ?? null;
}

export async function getSandboxAccountByUserId(db: Executor, params: { platform: Platform; platformUserId: string }) {
  const [row] = await db
    .select(sandboxAccountColumns)
    .from(sandboxAccounts)
    .where(
      and(eq(sandboxAccounts.platform, params.platform), eq(sandboxAccounts.platformUserId, params.platformUserId)),
    );
  return row ?? null;
}

/** Registers a platform user; an existing (platform, user id) keeps its token. Returns the stored account. */
export async function registerSandboxAccount(
  db: Executor,
  params: {
    platform: Platform;
    platformUserId: string;
    handle: string;
    displayName?: string | null;
    tokenHash: string;
  },
) {
  await db.insert(sandboxAccounts).values(params).onConflictDoNothing();
  return getSandboxAccountByUserId(db, params);
}

/** The account's platform and its stored settings (null when never set): one read per request. */
export async function getSandboxFaults(db: Executor, params: { accountId: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(params.accountId)) return null;
  const [row] = await db
    .select({ platform: sandboxAccounts.platform, faults: sandboxFaults })
    .from(sandboxAccounts)
    .leftJoin(sandboxFaults, eq(sandboxFaults.accountId, sandboxAccounts.id))
    .where(eq(sandboxAccounts.id, params.accountId));
  return row ?? null;
}

export type FaultValues = Omit<typeof sandboxFaults.$inferInsert, 'accountId' | 'updatedAt'>;

/** One row per account (each may get its own profile); a full replacement of what was there. */
export async function upsertSandboxFaults(
  db: Executor,
  params: { rows: { accountId: string; faults: FaultValues }[] },
) {
  if (params.rows.length === 0) return;
  const updatedAt = new Date();
  await db
    .insert(sandboxFaults)
    .values(params.rows.map((r) => ({ accountId: r.accountId, ...r.faults, updatedAt })))
    .onConflictDoUpdate({
      target: sandboxFaults.accountId,
      set: Object.fromEntries(
        Object.keys(params.rows[0]!.faults)
          .map((k) => [k, sql.raw(`excluded.${snake(k)}`)])
          .concat([['updatedAt', sql`excluded.updated_at`]]),
      ),
    });
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Serialises writes to one account inside a transaction (X's duplicate-content check reads then inserts). */
export async function lockSandboxAccount(db: Executor, params: { accountId: string }) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${params.accountId}, 7270702))`);
}

/** The newest post or reply with this exact text since then; deleted ones only with `includeDeleted` (LinkedIn). */
export async function findSandboxDuplicate(
  db: Executor,
  params: { accountId: string; text: string; since: Date; includeDeleted?: boolean },
) {
  const [row] = await db
    .select()
    .from(sandboxPosts)
    .where(
      and(
        eq(sandboxPosts.accountId, params.accountId),
        sql`md5(${sandboxPosts.text}) = md5(${params.text})`,
        eq(sandboxPosts.text, params.text),
        inArray(sandboxPosts.kind, ['post', 'reply']),
        gte(sandboxPosts.createdAt, params.since),
        params.includeDeleted ? undefined : isNull(sandboxPosts.deletedAt),
      ),
    )
    .orderBy(desc(sandboxPosts.id))
    .limit(1);
  return row ?? null;
}

/** Null when the id is taken (a snowflake collision: the caller draws a new one). */
export async function insertSandboxPost(
  db: Executor,
  params: {
    id: bigint;
    accountId: string;
    kind: PostKind;
    text: string;
    inReplyToId?: string | null;
    recipientId?: string | null;
    idempotencyKey?: string | null;
    /** What else the post is (an Instagram Story: `{ media_product_type: 'STORY' }`, a TikTok video's record). */
    record?: Record<string, unknown> | null;
    /** Bluesky: the record key (the seed's copies; putRecord goes through insertSandboxRecord). */
    recordKey?: string | null;
    media?: { type: string; altText: string; sha256: string }[];
    createdAt: Date;
  },
) {
  const [row] = await db
    .insert(sandboxPosts)
    .values(params)
    .onConflictDoNothing({ target: sandboxPosts.id })
    .returning();
  return row ?? null;
}

/**
 * Inserts a Bluesky record unless a live post of the account holds its key (null then): one statement, the
 * partial unique index `sandbox_posts_account_record_key_uq` decides between racing writers.
 */
export async function insertSandboxRecord(
  db: Executor,
  params: {
    id: bigint;
    accountId: string;
    kind: PostKind;
    text: string;
    inReplyToId?: string | null;
    recordKey: string;
    record: Record<string, unknown>;
    media?: { type: string; altText: string; sha256: string }[];
    createdAt: Date;
  },
) {
  const [row] = await db
    .insert(sandboxPosts)
    .values(params)
    .onConflictDoNothing({
      target: [sandboxPosts.accountId, sandboxPosts.recordKey],
      where: sql`${sandboxPosts.recordKey} is not null and ${sandboxPosts.deletedAt} is null`,
    })
    .returning();
  return row ?? null;
}

export async function getSandboxPostByRecordKey(db: Executor, params: { accountId: string; recordKey: string }) {
  const [row] = await db
    .select()
    .from(sandboxPosts)
    .where(
      and(
        eq(sandboxPosts.accountId, params.accountId),
        eq(sandboxPosts.recordKey, params.recordKey),
        isNull(sandboxPosts.deletedAt),
      ),
    );
  return row ?? null;
}

/** A live post (deleted ones only with `includeDeleted`). */
export async function getSandboxPost(db: Executor, params: { id: bigint; includeDeleted?: boolean }) {
  const [row] = await db
    .select()
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.id, params.id), params.includeDeleted ? undefined : isNull(sandboxPosts.deletedAt)));
  return row ?? null;
}

/** Soft delete, atomic: only the author's live post; null when nothing changed. */
export async function softDeleteSandboxPost(db: Executor, params: { accountId: string; id: bigint }) {
  const [row] = await db
    .update(sandboxPosts)
    .set({ deletedAt: new Date() })
    .where(
      and(eq(sandboxPosts.id, params.id), eq(sandboxPosts.accountId, params.accountId), isNull(sandboxPosts.deletedAt)),
    )
    .returning();
  return row ?? null;
}

export async function getOwnSandboxPost(db: Executor, params: { accountId: string; id: bigint }) {
  const [row] = await db
    .select()
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.id, params.id), eq(sandboxPosts.accountId, params.accountId)));
  return row ?? null;
}

/** Every copy on the account, deleted ones too, oldest first. */
export async function listAllSandboxPosts(db: Executor, params: { accountId: string }) {
  return db
    .select()
    .from(sandboxPosts)
    .where(eq(sandboxPosts.accountId, params.accountId))
    .orderBy(asc(sandboxPosts.id));
}

export type SandboxPostQuery = {
  accountId: string;
  kinds: PostKind[];
  startTime?: Date;
  endTime?: Date;
  /** Only ids below this (paging newest → oldest). */
  maxId?: bigint;
  /** Only ids above this. */
  sinceId?: bigint;
  createdUpTo?: Date;
  includeDeleted?: boolean;
  /** Bluesky's listRecords: keyed posts only, by record key (newest first), below `before`. */
  byRecordKey?: { before?: string };
  limit: number;
};

/** Newest first. */
export async function listSandboxPosts(db: Executor, params: SandboxPostQuery) {
  const byKey = params.byRecordKey;
  const where: (SQL | undefined)[] = [
    eq(sandboxPosts.accountId, params.accountId),
    inArray(sandboxPosts.kind, params.kinds),
    params.startTime ? gte(sandboxPosts.createdAt, params.startTime) : undefined,
    params.endTime ? lte(sandboxPosts.createdAt, params.endTime) : undefined,
    params.maxId !== undefined ? lt(sandboxPosts.id, params.maxId) : undefined,
    params.sinceId !== undefined ? gt(sandboxPosts.id, params.sinceId) : undefined,
    params.createdUpTo ? lte(sandboxPosts.createdAt, params.createdUpTo) : undefined,
    params.includeDeleted ? undefined : isNull(sandboxPosts.deletedAt),
    byKey ? isNotNull(sandboxPosts.recordKey) : undefined,
    // Record keys order bytewise (TIDs are base32-sortable), whatever the database's collation.
    byKey?.before ? sql`${sandboxPosts.recordKey} collate "C" < ${byKey.before}` : undefined,
  ];
  return db
    .select()
    .from(sandboxPosts)
    .where(and(...where))
    .orderBy(byKey ? sql`${sandboxPosts.recordKey} collate "C" desc` : desc(sandboxPosts.id))
    .limit(params.limit);
}

/** The live replies to one post, whoever made them, newest first (Instagram's comments on a media object). */
export async function listSandboxReplies(
  db: Executor,
  params: { postId: string; maxId?: bigint; createdUpTo?: Date; limit: number },
) {
  return db
    .select()
    .from(sandboxPosts)
    .where(
      and(
        eq(sandboxPosts.inReplyToId, params.postId),
        isNull(sandboxPosts.deletedAt),
        params.maxId !== undefined ? lt(sandboxPosts.id, params.maxId) : undefined,
        params.createdUpTo ? lte(sandboxPosts.createdAt, params.createdUpTo) : undefined,
      ),
    )
    .orderBy(desc(sandboxPosts.id))
    .limit(params.limit);
}

export async function countSandboxPosts(db: Executor, params: { accountIds: string[] }) {
  if (params.accountIds.length === 0) return [];
  return db
    .select({ accountId: sandboxPosts.accountId, total: count() })
    .from(sandboxPosts)
    .where(and(inArray(sandboxPosts.accountId, params.accountIds), isNull(sandboxPosts.deletedAt)))
    .groupBy(sandboxPosts.accountId);
}

/** Redis GET: the post a key was set to, if set at or after `setSince` (older keys have expired). */
export async function getSandboxIdempotencyKeyPost(
  db: Executor,
  params: { accountId: string; key: string; setSince: Date },
) {
  const [row] = await db
    .select({ postId: sandboxIdempotencyKeys.postId })
    .from(sandboxIdempotencyKeys)
    .where(
      and(
        eq(sandboxIdempotencyKeys.accountId, params.accountId),
        eq(sandboxIdempotencyKeys.key, params.key),
        gte(sandboxIdempotencyKeys.createdAt, params.setSince),
        isNotNull(sandboxIdempotencyKeys.postId),
      ),
    );
  return row?.postId ?? null;
}

/** Redis SETEX: sets (or overwrites) the key, its hour starting now. */
export async function setSandboxIdempotencyKeyPost(
  db: Executor,
  params: { accountId: string; key: string; postId: bigint },
) {
  const createdAt = new Date();
  await db
    .insert(sandboxIdempotencyKeys)
    .values({ ...params, createdAt })
    .onConflictDoUpdate({
      target: [sandboxIdempotencyKeys.accountId, sandboxIdempotencyKeys.key],
      set: { postId: params.postId, createdAt },
    });
}

/** Redis SET NX PX: takes the lock when free or expired, in one statement; the token when taken. */
export async function tryTakeSandboxLock(db: Executor, params: { name: string; token: string; ttlMs: number }) {
  const expiresAt = new Date(Date.now() + params.ttlMs);
  const [row] = await db
    .insert(sandboxLocks)
    .values({ name: params.name, token: params.token, expiresAt })
    .onConflictDoUpdate({
      target: sandboxLocks.name,
      set: { token: params.token, expiresAt },
      setWhere: lt(sandboxLocks.expiresAt, new Date()),
    })
    .returning({ token: sandboxLocks.token });
  return row?.token ?? null;
}

/** Releases the lock only if this holder still has it (an expired and re-taken lock is not ours). */
export async function releaseSandboxLock(db: Executor, params: { name: string; token: string }) {
  await db.delete(sandboxLocks).where(and(eq(sandboxLocks.name, params.name), eq(sandboxLocks.token, params.token)));
}

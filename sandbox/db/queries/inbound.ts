import { and, desc, eq, gt, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { sandboxPosts } from '@/sandbox/db/schema';

// Posts addressed to an account by someone else (sandbox/behaviour/inbound.ts): what its notifications, mentions and
// DM listings serve. Each is stored once by its generator key (`sandbox_posts_inbound_key_uq`).

type PostKind = 'post' | 'reply' | 'dm';

/**
 * Stores an inbound post unless its key is taken: the stored row, or null when this call stored nothing (the key
 * was taken, or its snowflake collided: the caller reads the key, then draws again).
 */
export async function insertSandboxInbound(
  db: Executor,
  params: {
    id: bigint;
    accountId: string;
    kind: PostKind;
    text: string;
    inReplyToId: string | null;
    recipientId: string | null;
    recordKey: string | null;
    record: Record<string, unknown> | null;
    createdAt: Date;
    addressedTo: string;
    inboundKey: string;
  },
) {
  const [row] = await db.insert(sandboxPosts).values(params).onConflictDoNothing().returning();
  return row ?? null;
}

export async function getSandboxInbound(db: Executor, params: { inboundKey: string }) {
  const [row] = await db.select().from(sandboxPosts).where(eq(sandboxPosts.inboundKey, params.inboundKey));
  return row ?? null;
}

/** Live posts addressed to the account, newest first (`sandbox_posts_addressed_idx`). */
export async function listSandboxInbound(
  db: Executor,
  params: {
    accountId: string;
    kinds: PostKind[];
    sinceId?: bigint;
    maxId?: bigint;
    startTime?: Date;
    createdUpTo?: Date;
    limit: number;
  },
) {
  return db
    .select()
    .from(sandboxPosts)
    .where(
      and(
        eq(sandboxPosts.addressedTo, params.accountId),
        inArray(sandboxPosts.kind, params.kinds),
        isNull(sandboxPosts.deletedAt),
        params.sinceId !== undefined ? gt(sandboxPosts.id, params.sinceId) : undefined,
        params.maxId !== undefined ? lt(sandboxPosts.id, params.maxId) : undefined,
        params.startTime ? gte(sandboxPosts.createdAt, params.startTime) : undefined,
        params.createdUpTo ? lte(sandboxPosts.createdAt, params.createdUpTo) : undefined,
      ),
    )
    .orderBy(desc(sandboxPosts.id))
    .limit(params.limit);
}

/** A demo account receives `perDay` inbound posts unless its settings were chosen already (they are kept). */
export async function seedInboundRate(db: Executor, params: { accountId: string; profile: string; perDay: number }) {
  await db.execute(sql`
    insert into sandbox.faults (account_id, profile, inbound_per_day)
    values (${params.accountId}, ${params.profile}, ${params.perDay})
    on conflict (account_id) do nothing`);
}

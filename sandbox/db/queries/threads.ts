import { and, count, eq, gte } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { sandboxPosts, sandboxThreadsContainers } from '@/sandbox/db/schema';

// The sandbox's Threads media containers (sandbox/dialects/threads/api.ts). Publishing one is a transaction in
// sandbox/store/pg-store.ts under the account's advisory lock (lockSandboxAccount), built from these.

/** Null when the id is taken (a snowflake collision: the caller draws a new one). */
export async function insertSandboxContainer(db: Executor, params: typeof sandboxThreadsContainers.$inferInsert) {
  const [row] = await db
    .insert(sandboxThreadsContainers)
    .values(params)
    .onConflictDoNothing({ target: sandboxThreadsContainers.id })
    .returning();
  return row ?? null;
}

export async function getSandboxContainer(db: Executor, params: { id: bigint }) {
  const [row] = await db.select().from(sandboxThreadsContainers).where(eq(sandboxThreadsContainers.id, params.id));
  return row ?? null;
}

export async function markSandboxContainerPublished(
  db: Executor,
  params: { id: bigint; postId: bigint; publishedAt: Date },
) {
  const [row] = await db
    .update(sandboxThreadsContainers)
    .set({ postId: params.postId, publishedAt: params.publishedAt })
    .where(eq(sandboxThreadsContainers.id, params.id))
    .returning();
  return row!;
}

/** Posts of one kind published on the account since then, deleted ones too (a delete gives no quota back). */
export async function countSandboxPostsSince(
  db: Executor,
  params: { accountId: string; kind: 'post' | 'reply'; since: Date },
) {
  const [row] = await db
    .select({ total: count() })
    .from(sandboxPosts)
    .where(
      and(
        eq(sandboxPosts.accountId, params.accountId),
        eq(sandboxPosts.kind, params.kind),
        gte(sandboxPosts.createdAt, params.since),
      ),
    );
  return row?.total ?? 0;
}

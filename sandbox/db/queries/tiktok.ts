import { and, count, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { sandboxTiktokPublishes } from '@/sandbox/db/schema';

// The sandbox's TikTok publishes (sandbox/dialects/tiktok/api.ts). Finishing one is a transaction in
// sandbox/store/pg-store.ts (the publish row locked, the post inserted), built from these.

/** Null when the id is taken (the caller draws a new one). */
export async function insertSandboxTiktokPublish(db: Executor, params: typeof sandboxTiktokPublishes.$inferInsert) {
  const [row] = await db
    .insert(sandboxTiktokPublishes)
    .values(params)
    .onConflictDoNothing({ target: sandboxTiktokPublishes.id })
    .returning();
  return row ?? null;
}

export async function getSandboxTiktokPublish(db: Executor, params: { id: string; forUpdate?: boolean }) {
  const query = db.select().from(sandboxTiktokPublishes).where(eq(sandboxTiktokPublishes.id, params.id));
  const [row] = params.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * One chunk, as one compare-and-set (sandbox/dialects/tiktok/publishes.ts chunkFits): it must start where the
 * received bytes end and stay within the declared size, while the publish still waits for bytes.
 */
export async function takeSandboxTiktokChunk(
  db: Executor,
  params: { id: string; first: number; length: number; media?: { type: string; altText: string; sha256: string }[] },
) {
  const t = sandboxTiktokPublishes;
  const [row] = await db
    .update(t)
    .set({
      uploadedBytes: sql`${t.uploadedBytes} + ${params.length}`,
      ...(params.media ? { media: params.media } : {}),
    })
    .where(
      and(
        eq(t.id, params.id),
        eq(t.source, 'FILE_UPLOAD'),
        isNull(t.readyAt),
        isNull(t.failReason),
        eq(t.uploadedBytes, params.first),
        sql`${params.length} > 0 and ${params.first + params.length} <= ${t.videoSize}`,
      ),
    )
    .returning();
  return row ?? null;
}

export async function endSandboxTiktokPublish(
  db: Executor,
  params: {
    id: string;
    readyAt: Date;
    media: { type: string; altText: string; sha256: string }[];
    failReason: string | null;
    postId: bigint | null;
  },
) {
  const [row] = await db
    .update(sandboxTiktokPublishes)
    .set({ readyAt: params.readyAt, media: params.media, failReason: params.failReason, postId: params.postId })
    .where(eq(sandboxTiktokPublishes.id, params.id))
    .returning();
  return row!;
}

/** TikTok's daily cap counts the account's publishes in one mode since then. */
export async function countSandboxTiktokPublishes(
  db: Executor,
  params: { accountId: string; mode: 'direct' | 'inbox'; since: Date },
) {
  const t = sandboxTiktokPublishes;
  const [row] = await db
    .select({ total: count() })
    .from(t)
    .where(and(eq(t.accountId, params.accountId), eq(t.mode, params.mode), gte(t.createdAt, params.since)));
  return row?.total ?? 0;
}

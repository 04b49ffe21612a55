import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { sandboxYoutubeQuota, sandboxYoutubeUploads } from '@/sandbox/db/schema';

// The sandbox's YouTube upload sessions and quota (sandbox/dialects/youtube/api.ts). Completing a session is a
// transaction in sandbox/store/pg-store.ts (the session row locked, the video inserted), built from these.

export async function insertSandboxYoutubeUpload(db: Executor, params: typeof sandboxYoutubeUploads.$inferInsert) {
  const [row] = await db
    .insert(sandboxYoutubeUploads)
    .values(params)
    .onConflictDoNothing({ target: sandboxYoutubeUploads.id })
    .returning();
  return row ?? null;
}

export async function getSandboxYoutubeUpload(db: Executor, params: { id: string; forUpdate?: boolean }) {
  const query = db.select().from(sandboxYoutubeUploads).where(eq(sandboxYoutubeUploads.id, params.id));
  const [row] = params.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export function listSandboxYoutubeUploads(db: Executor, params: { accountId: string }) {
  const t = sandboxYoutubeUploads;
  return db.select().from(t).where(eq(t.accountId, params.accountId)).orderBy(asc(t.createdAt), asc(t.id));
}

/** One chunk as one compare-and-set (uploads.ts chunkFits): where the received bytes end, within the declared size. */
export async function takeSandboxYoutubeChunk(
  db: Executor,
  params: { id: string; first: number; length: number; media?: { type: string; altText: string; sha256: string }[] },
) {
  const t = sandboxYoutubeUploads;
  const [row] = await db
    .update(t)
    .set({
      uploadedBytes: sql`${t.uploadedBytes} + ${params.length}`,
      ...(params.media ? { media: params.media } : {}),
    })
    .where(
      and(
        eq(t.id, params.id),
        isNull(t.completedAt),
        isNull(t.failReason),
        eq(t.uploadedBytes, params.first),
        sql`${params.length} > 0 and ${params.first + params.length} <= ${t.declaredBytes}`,
      ),
    )
    .returning();
  return row ?? null;
}

export async function endSandboxYoutubeUpload(
  db: Executor,
  params: { id: string; readyAt: Date; failReason: string | null; postId: bigint | null },
) {
  const [row] = await db
    .update(sandboxYoutubeUploads)
    .set({ completedAt: new Date(), readyAt: params.readyAt, failReason: params.failReason, postId: params.postId })
    .where(eq(sandboxYoutubeUploads.id, params.id))
    .returning();
  return row!;
}

/** Spends quota units in one statement: refused (no row) when the day's total would pass the limit. */
export async function spendSandboxYoutubeQuota(
  db: Executor,
  params: { project: string; day: string; units: number; limit: number },
) {
  const t = sandboxYoutubeQuota;
  if (params.units > params.limit) return false;
  const [row] = await db
    .insert(t)
    .values({ project: params.project, day: params.day, units: params.units })
    .onConflictDoUpdate({
      target: [t.project, t.day],
      set: { units: sql`${t.units} + ${params.units}` },
      setWhere: sql`${t.units} + ${params.units} <= ${params.limit}`,
    })
    .returning({ units: t.units });
  return row !== undefined;
}

export async function getSandboxYoutubeQuota(db: Executor, params: { project: string; day: string }) {
  const t = sandboxYoutubeQuota;
  const [row] = await db
    .select({ units: t.units })
    .from(t)
    .where(and(eq(t.project, params.project), eq(t.day, params.day)));
  return row?.units ?? 0;
}

export async function setSandboxYoutubeThumbnail(
  db: Executor,
  params: { accountId: string; videoId: bigint; sha256: string },
) {
  const t = sandboxYoutubeUploads;
  const rows = await db
    .update(t)
    .set({ thumbnailSha256: params.sha256 })
    .where(and(eq(t.accountId, params.accountId), eq(t.postId, params.videoId)))
    .returning({ id: t.id });
  return rows.length > 0;
}

import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { media, mediaUploads, type MediaUpload } from '../schema';
import { insertMedia, mediaColumns, type MediaRow, type NewMedia } from './media';

export async function createMediaUpload(
  db: Executor,
  params: Pick<MediaUpload, 'id' | 'workspaceId' | 'createdBy' | 'length' | 'metadata' | 'expiresAt'>,
): Promise<void> {
  await db.insert(mediaUploads).values(params);
}

/** The workspace's upload with this id; another workspace's is simply not found (I6). */
export async function getWorkspaceMediaUpload(
  db: Executor,
  params: { workspaceId: string; id: string },
): Promise<MediaUpload | null> {
  const [row] = await db
    .select()
    .from(mediaUploads)
    .where(and(eq(mediaUploads.workspaceId, params.workspaceId), eq(mediaUploads.id, params.id)));
  return row ?? null;
}

/** The offset the tus store reports after a PATCH (what the upload list shows; the store's file is the truth). */
export async function setMediaUploadOffset(db: Executor, params: { id: string; offset: number }) {
  await db
    .update(mediaUploads)
    .set({ offset: params.offset })
    .where(and(eq(mediaUploads.id, params.id), eq(mediaUploads.status, 'uploading')));
}

/** Refused at the finish (not a video we take): nothing was stored, and a retry gets the same reason. */
export async function failMediaUpload(db: Executor, params: { id: string; error: string }) {
  await db
    .update(mediaUploads)
    .set({ status: 'failed', error: params.error })
    .where(and(eq(mediaUploads.id, params.id), eq(mediaUploads.status, 'uploading')));
}

/**
 * The one media row of a finished upload. The upload row is locked first, so of two finishes at once the second
 * waits and then finds the first's media id (and `media_uploads_media_uq` would refuse a second row in any case).
 */
export async function finishMediaUpload(
  db: Database,
  params: { id: string; media: NewMedia },
): Promise<{ media: MediaRow; created: boolean } | null> {
  return db.transaction(async (tx) => {
    const [upload] = await tx
      .select({ mediaId: mediaUploads.mediaId, status: mediaUploads.status })
      .from(mediaUploads)
      .where(and(eq(mediaUploads.id, params.id), eq(mediaUploads.workspaceId, params.media.workspaceId)))
      .for('update');
    if (!upload || upload.status === 'failed') return null;
    if (upload.mediaId) {
      const [existing] = await tx.select(mediaColumns).from(media).where(eq(media.id, upload.mediaId));
      return { media: existing!, created: false };
    }
    const row = await insertMedia(tx, params.media);
    await tx
      .update(mediaUploads)
      .set({ mediaId: row.id, status: 'finished', offset: sql`${mediaUploads.length}` })
      .where(eq(mediaUploads.id, params.id));
    return { media: row, created: true };
  });
}

/** The media row a finished upload of this workspace made, or null. */
export async function getUploadMedia(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = await db
    .select(mediaColumns)
    .from(mediaUploads)
    .innerJoin(media, eq(media.id, mediaUploads.mediaId))
    .where(and(eq(mediaUploads.workspaceId, params.workspaceId), eq(mediaUploads.id, params.id)));
  return row ?? null;
}

/** Bytes the workspace's unfinished, unexpired uploads have declared: counted against the quota with its media. */
export async function getWorkspaceUploadingBytes(db: Executor, params: { workspaceId: string; now: Date }) {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${mediaUploads.length}), 0)` })
    .from(mediaUploads)
    .where(
      and(
        eq(mediaUploads.workspaceId, params.workspaceId),
        eq(mediaUploads.status, 'uploading'),
        gt(mediaUploads.expiresAt, params.now),
      ),
    );
  return Number(row?.bytes ?? 0);
}

/**
 * Unfinished uploads past their expiry, and failed ones: deleted in one statement (skipping rows a finish holds), their
 * ids returned so their tus files can go too.
 */
export async function deleteExpiredMediaUploads(db: Executor, params: { now: Date; limit: number }) {
  const rows = await db.execute<{ id: string }>(sql`
    with doomed as (
      select u.id from media_uploads u
      where u.expires_at < ${params.now.toISOString()}::timestamptz and u.status <> 'finished'
      order by u.expires_at limit ${params.limit}
      for update skip locked
    )
    delete from media_uploads u using doomed d where u.id = d.id returning u.id`);
  return [...rows].map((r) => r.id);
}

import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { media, postMedia, posts, workspaces } from '../schema';

export const mediaColumns = {
  id: media.id,
  sha256: media.sha256,
  type: media.type,
  width: media.width,
  height: media.height,
  size: media.size,
  altText: media.altText,
  durationMs: media.durationMs,
  videoCodec: media.videoCodec,
  audioCodec: media.audioCodec,
  frameRate: media.frameRate,
  rotation: media.rotation,
  container: media.container,
  coverSha256: media.coverSha256,
};
/** An image's row, or a video's with its probe (the video columns are null for an image). */
export type MediaRow = {
  id: string;
  sha256: string;
  type: string;
  width: number;
  height: number;
  size: number;
  altText: string;
  durationMs: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  frameRate: number | null;
  rotation: number | null;
  container: string | null;
  coverSha256: string | null;
};
export type NewMedia = Omit<MediaRow, 'id' | keyof VideoColumns> &
  Partial<VideoColumns> & { workspaceId: string; createdBy: string };
type VideoColumns = Pick<
  MediaRow,
  'durationMs' | 'videoCodec' | 'audioCodec' | 'frameRate' | 'rotation' | 'container' | 'coverSha256'
>;

/** The media columns of a joined row (a post's media with its part and position). */
const mediaRowOf = (row: MediaRow): MediaRow =>
  Object.fromEntries(Object.keys(mediaColumns).map((k) => [k, row[k as keyof MediaRow]])) as MediaRow;

export async function insertMedia(db: Executor, params: NewMedia): Promise<MediaRow> {
  const [row] = await db.insert(media).values(params).returning(mediaColumns);
  return row!;
}

/** The workspace's media among `ids` (another workspace's id is simply not found: I6). */
export async function getWorkspaceMedia(db: Executor, params: { workspaceId: string; ids: string[] }) {
  if (params.ids.length === 0) return [];
  return db
    .select(mediaColumns)
    .from(media)
    .where(and(eq(media.workspaceId, params.workspaceId), inArray(media.id, params.ids)));
}

export async function insertPostMedia(db: Executor, params: { postId: string; part?: number; mediaIds: string[] }) {
  if (params.mediaIds.length === 0) return;
  await db.insert(postMedia).values(
    params.mediaIds.map((mediaId, position) => ({
      postId: params.postId,
      part: params.part ?? 0,
      position,
      mediaId,
    })),
  );
}

/** The images of each post (all parts), in order: what the publisher uploads before the post. */
export async function getPostsMedia(db: Executor, params: { postIds: string[] }) {
  if (params.postIds.length === 0) return [];
  return db
    .select({ postId: postMedia.postId, part: postMedia.part, position: postMedia.position, ...mediaColumns })
    .from(postMedia)
    .innerJoin(media, eq(media.id, postMedia.mediaId))
    .where(inArray(postMedia.postId, params.postIds))
    .orderBy(asc(postMedia.postId), asc(postMedia.part), asc(postMedia.position));
}

/**
 * Each post's images by part (`[part][position]`, a part without any an empty list), for these posts: a thread's
 * per part, any other kind's under part 0.
 */
export async function getPartMediaOf(
  db: Executor,
  page: { id: string; kind: string }[],
): Promise<Map<string, MediaRow[][]>> {
  const byPost = new Map<string, MediaRow[][]>();
  for (const row of await getPostsMedia(db, { postIds: page.map((p) => p.id) })) {
    const parts = byPost.get(row.postId) ?? [];
    (parts[row.part] ??= []).push(mediaRowOf(row));
    byPost.set(row.postId, parts);
  }
  return byPost;
}

/** One post's images by part (another kind's under part 0). */
export async function getPartMedia(db: Executor, post: { id: string; kind: string }): Promise<MediaRow[][]> {
  return (await getPartMediaOf(db, [post])).get(post.id) ?? [];
}

/**
 * Replaces a thread's images, every part at once (an edit, while no part is claimed): `[part][position]` ids,
 * already checked to be this workspace's images.
 */
export async function replacePartMedia(
  db: Executor,
  params: { workspaceId: string; postId: string; partMediaIds: string[][] },
) {
  const [owned] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, params.postId), eq(posts.workspaceId, params.workspaceId)));
  if (!owned) return;
  await db.delete(postMedia).where(eq(postMedia.postId, params.postId));
  for (const [part, mediaIds] of params.partMediaIds.entries())
    await insertPostMedia(db, { postId: params.postId, part, mediaIds });
}

export async function getRequireAltText(db: Executor, params: { workspaceId: string }): Promise<boolean> {
  const [row] = await db
    .select({ requireAltText: workspaces.requireAltText })
    .from(workspaces)
    .where(eq(workspaces.id, params.workspaceId));
  return row?.requireAltText ?? true;
}

export async function setRequireAltText(db: Executor, params: { workspaceId: string; requireAltText: boolean }) {
  await db
    .update(workspaces)
    .set({ requireAltText: params.requireAltText })
    .where(eq(workspaces.id, params.workspaceId));
}

/**
 * Uploads that no post references and that are older than `before` (an upload is attached within minutes): deleted
 * in one statement, skipping rows another transaction holds (a post attaching one right now keeps it). Returns the
 * hashes (a video's and its cover's) that no media row names any more, whose bytes may go too.
 */
export async function deleteUnreferencedMedia(db: Executor, params: { before: Date; limit: number }) {
  const [row] = await db.execute<{ deleted: number; orphaned: string[] }>(sql`
    with doomed as (
      select m.id from media m
      where m.created_at < ${params.before.toISOString()}::timestamptz
        and not exists (select 1 from post_media pm where pm.media_id = m.id)
      order by m.created_at limit ${params.limit}
      for update skip locked
    ), gone as (
      delete from media m using doomed d where m.id = d.id returning m.sha256, m.cover_sha256
    ), hashes as (
      select sha256 from gone union select cover_sha256 from gone where cover_sha256 is not null
    )
    select (select count(*)::int from gone) as deleted,
      coalesce((select array_agg(h.sha256) from hashes h
        where not exists (select 1 from media o where (o.sha256 = h.sha256 or o.cover_sha256 = h.sha256)
          and o.id not in (select id from doomed))),
        '{}') as orphaned`);
  return { deleted: Number(row?.deleted ?? 0), orphanedHashes: row?.orphaned ?? [] };
}

/**
 * Bytes this workspace's uploads take (the per-workspace quota counts them), and whether one of them already holds
 * these bytes (a retried upload, or the same image again: nothing new is stored).
 */
export async function getWorkspaceMediaUsage(db: Executor, params: { workspaceId: string; sha256?: string }) {
  const [row] = await db
    .select({
      bytes: sql<string>`coalesce(sum(${media.size}), 0)`,
      holds: sql<boolean>`coalesce(bool_or(${media.sha256} = ${params.sha256 ?? ''}), false)`,
    })
    .from(media)
    .where(eq(media.workspaceId, params.workspaceId));
  return { bytes: Number(row?.bytes ?? 0), holdsThese: Boolean(row?.holds) };
}

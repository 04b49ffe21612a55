import { sniffImageType } from '@/lib/media/sniff';
import { json, withListingFaults, withWriteFaults } from '@/sandbox/behaviour/faults';
import { graphDialect, sleep, storeContainer, type MediaEdgeCall } from '@/sandbox/dialects/graph/api';
import { mediaInsights } from '@/sandbox/dialects/graph/insights';
import { invalidParameter, unknownPath, unsupportedRequest } from '@/sandbox/dialects/threads/errors';
import { graphPage, graphTime, listThreads } from '@/sandbox/dialects/threads/reads';
import { graphFields, type GraphFields } from '@/sandbox/dialects/graph/fields';
import { fetchImageOverHttp, sha256Of, sniffVideoType } from '@/sandbox/http/media';
import type { SandboxAccount, SandboxDeps, SandboxPost, SandboxPostMedia } from '@/sandbox/store/types';
import { instagramCaptionLength } from './text-length';

// The Instagram API with Instagram Login (graph.instagram.com) as the sandbox serves it: the two container steps of
// sandbox/dialects/graph/api.ts with Instagram's own container kinds (developers.facebook.com/docs/instagram-platform/
// content-publishing): an image (JPEG only), a Reel, a Story, and a carousel of 2–10 image and video items. The
// platform fetches each file itself by URL and processes a video before the container reads FINISHED. Its API
// deletes nothing, and media_publish has no idempotency: a second publish of a container is refused, on `plain`
// it makes a second post.

const MAX_CAPTION = 2_200;
const MAX_HASHTAGS = 30;
/** "Instagram accounts are limited to 100 API-published posts within a 24-hour moving period." */
const QUOTA = { max: 100, windowMs: 24 * 3_600_000 };
/** How long the sandbox takes to process a video before its container reads FINISHED (Instagram takes seconds to minutes). */
export const VIDEO_PROCESSING_MS = 1_500;
/** The largest video the sandbox fetches (the real limits, 100–300 MB, are checked by the client before sending). */
const MAX_SANDBOX_VIDEO_BYTES = 64 * 1024 * 1024;
const MEDIA_TYPES = new Set(['IMAGE', 'CAROUSEL', 'VIDEO', 'REELS', 'STORIES']);

export const handleInstagram = graphDialect({
  platform: 'instagram',
  exchangeGrant: 'ig_exchange_token',
  refreshGrant: 'ig_refresh_token',
  scope: 'instagram_business_basic instagram_business_content_publish',
  createEdge: 'media',
  publishEdge: 'media_publish',
  listings: { media: 'post' },
  limitEdge: 'content_publishing_limit',
  statusField: 'status_code',
  errorField: 'status',
  containerNode: 'ShadowIGMediaBuilder',
  mediaNode: 'IGMedia',
  createContainer: createInstagramContainer,
  quota: () => ({
    ...QUOTA,
    message: 'The maximum number of posts that can be published in 24 hours has been reached.',
  }),
  listPosts: listMedia,
  publishingLimit,
  mediaJson,
  mediaEdges: { comments, insights: mediaInsights('instagram') },
  canDelete: false,
});

/** A comment follows the caption's rules (the Graph reference names no others): 2,200 characters, 30 hashtags. */
const COMMENT_RULES = { maxLength: MAX_CAPTION, maxHashtags: MAX_HASHTAGS };

/**
 * /{media}/comments on one of the account's own media objects. POST ?message=…: one comment, no idempotency (a
 * resend is a second comment), with the account's write faults. GET: the media's comments, newest first, paged.
 */
async function comments({ request, url, params, mediaId, viewer, deps }: MediaEdgeCall): Promise<Response> {
  const media = await deps.store.getPost(mediaId);
  const method = request.method === 'GET' ? 'get' : 'post';
  if (!media || media.accountId !== viewer.id || media.kind !== 'post' || media.record?.media_product_type === 'STORY')
    return unsupportedRequest(method, mediaId);
  if (request.method === 'GET') return listComments(url, params, mediaId, viewer, deps);
  if (request.method !== 'POST') return unknownPath(url.pathname);
  const message = params.get('message') ?? '';
  if (message.trim() === '') return invalidParameter('The parameter message is required.');
  if (instagramCaptionLength(message) > COMMENT_RULES.maxLength)
    return invalidParameter(`A comment must be at most ${COMMENT_RULES.maxLength} characters.`);
  if ((message.match(/#[\p{L}\p{N}_]+/gu) ?? []).length > COMMENT_RULES.maxHashtags)
    return invalidParameter(`A comment takes at most ${COMMENT_RULES.maxHashtags} hashtags.`);
  return withWriteFaults(deps, request, { platform: 'instagram', accountId: viewer.id }, async (context) => {
    await sleep(context.createAt - Date.now()); // slow processing: the comment is made later, client or not
    const comment = await deps.store.insertPost({
      account: viewer,
      kind: 'reply',
      text: message,
      inReplyToId: mediaId,
    });
    return json(200, { id: comment!.id });
  });
}

/**
 * GET /{media}/comments: everyone's comments on the media, newest first, `limit` (default 25, at most 50) a page,
 * `after` the cursor of the last one read; each with its own author's username.
 */
async function listComments(
  url: URL,
  params: URLSearchParams,
  mediaId: string,
  viewer: SandboxAccount,
  deps: SandboxDeps,
): Promise<Response> {
  const limit = params.has('limit') ? Number(params.get('limit')) : 25;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) return invalidParameter('limit must be from 1 to 50.');
  const after = params.get('after');
  const maxId = after ? Buffer.from(after, 'base64url').toString() : undefined;
  if (maxId !== undefined && !/^\d{1,19}$/.test(maxId)) return invalidParameter('The after cursor is invalid.');
  const read = await withListingFaults(deps, { platform: 'instagram', accountId: viewer.id });
  if (read instanceof Response) return read;
  const rows = await deps.store.listReplies(mediaId, { maxId, createdUpTo: read.createdUpTo, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const fields = graphFields(params.get('fields') ?? 'id');
  const data = [];
  for (const comment of page) data.push(await commentJson(comment, mediaId, fields, deps));
  return graphPage(url, rows, limit, data);
}

/**
 * An IG Comment with the requested fields (`id` always), named by its own author; `parent_id` on a reply, and
 * `replies{…}` expanded to the replies under it (oldest first, with their own fields).
 */
async function commentJson(
  post: SandboxPost,
  mediaId: string,
  fields: GraphFields,
  deps: SandboxDeps,
): Promise<Record<string, unknown>> {
  const author = (await deps.store.getAccountById(post.accountId))!;
  const username = author.handle.replace(/^@/, '');
  const all: Record<string, unknown> = {
    id: post.id,
    text: post.text,
    timestamp: graphTime(post.createdAt),
    username,
    from: { id: author.platformUserId, username },
    media: { id: mediaId },
    ...(post.inReplyToId !== mediaId ? { parent_id: post.inReplyToId } : {}),
  };
  const shown = Object.fromEntries(Object.entries(all).filter(([key]) => key === 'id' || fields.has(key)));
  const replies = fields.get('replies');
  if (fields.has('replies')) {
    const under = (await deps.store.listReplies(post.id, { limit: 50 })).reverse();
    const data = [];
    for (const reply of under) data.push(await commentJson(reply, mediaId, replies ?? new Map([['id', null]]), deps));
    shown.replies = { data };
  }
  return shown;
}

/**
 * POST /{user}/media. `media_type` absent: an IMAGE (`image_url`); REELS and STORIES take `video_url` (a Story an
 * `image_url` too); VIDEO only as a carousel item. A file that cannot be fetched or is not what its type says leaves
 * the container in ERROR (as Instagram reports it after answering), never refused up front.
 */
async function createInstagramContainer(params: URLSearchParams, viewer: SandboxAccount, deps: SandboxDeps) {
  const item = params.get('is_carousel_item') === 'true';
  const mediaType = params.get('media_type') ?? 'IMAGE';
  if (!MEDIA_TYPES.has(mediaType)) return invalidParameter(`The media_type ${mediaType} is not supported.`);
  if (mediaType === 'VIDEO' && !item)
    return invalidParameter('The VIDEO media type is no longer supported: publish a single video as REELS.');
  if (item && (mediaType === 'CAROUSEL' || mediaType === 'REELS' || mediaType === 'STORIES'))
    return invalidParameter('A carousel item is an image or a VIDEO.');
  const caption = params.get('caption') ?? '';
  if (instagramCaptionLength(caption) > MAX_CAPTION)
    return invalidParameter(`The caption must be at most ${MAX_CAPTION} characters.`);
  if ((caption.match(/#[\p{L}\p{N}_]+/gu) ?? []).length > MAX_HASHTAGS)
    return invalidParameter(`A caption takes at most ${MAX_HASHTAGS} hashtags.`);
  const imageUrl = params.get('image_url');
  const videoUrl = params.get('video_url');
  const wantsVideo = mediaType === 'VIDEO' || mediaType === 'REELS' || (mediaType === 'STORIES' && !imageUrl);
  if (mediaType !== 'CAROUSEL') {
    const url = wantsVideo ? videoUrl : imageUrl;
    if (!/^https?:\/\//.test(url ?? ''))
      return invalidParameter(`The parameter ${wantsVideo ? 'video_url' : 'image_url'} is required.`);
  }

  let media: SandboxPostMedia[] = [];
  let errorMessage: string | null = null;
  if (mediaType === 'CAROUSEL') {
    const children = (params.get('children') ?? '').split(',').filter(Boolean);
    if (children.length < 2 || children.length > 10)
      return invalidParameter('The parameter children must name 2 to 10 carousel item containers.');
    for (const id of children) {
      const child = /^\d{1,19}$/.test(id) ? await deps.store.getContainer(id) : null;
      // An item still processing cannot be part of a carousel yet; a failed one never can.
      if (!child || child.accountId !== viewer.id || child.errorMessage || child.readyAt.getTime() > Date.now())
        return invalidParameter(`The carousel item ${id} is not a finished item container of this user.`);
      media.push(...child.media);
    }
  } else {
    const fetched = await fetchMedia(deps, wantsVideo ? videoUrl! : imageUrl!, wantsVideo);
    if (fetched) media = [{ ...fetched, altText: params.get('alt_text') ?? '' }];
    // 2207026: "the video format is not supported"; 2207052: "the media could not be fetched from this URI".
    else errorMessage = wantsVideo ? '2207026' : '2207052';
  }
  return storeContainer(
    deps,
    viewer,
    {
      kind: 'post',
      mediaType:
        item && mediaType === 'IMAGE' ? 'IMAGE' : (mediaType as 'IMAGE' | 'CAROUSEL' | 'VIDEO' | 'REELS' | 'STORIES'),
      text: mediaType === 'STORIES' || item ? '' : caption,
      imageUrl: wantsVideo ? null : imageUrl,
      videoUrl: wantsVideo ? videoUrl : null,
      media,
      inReplyToId: null,
      errorMessage,
    },
    wantsVideo && !errorMessage ? VIDEO_PROCESSING_MS : 0,
  );
}

/** The file behind a URL, checked by its bytes: a JPEG, or an MP4/MOV video. */
async function fetchMedia(
  deps: SandboxDeps,
  url: string,
  video: boolean,
): Promise<Omit<SandboxPostMedia, 'altText'> | null> {
  const bytes = deps.fetchImage
    ? await deps.fetchImage(url)
    : await fetchImageOverHttp(url, undefined, video ? MAX_SANDBOX_VIDEO_BYTES : undefined);
  if (!bytes) return null;
  const type = video ? sniffVideoType(bytes) : sniffImageType(bytes) === 'image/jpeg' ? 'image/jpeg' : null;
  return type ? { type, sha256: sha256Of(bytes) } : null;
}

/** GET /{user}/media: the feed's posts (Stories are not in it), newest first, with Graph's paging. */
function listMedia(url: URL, params: URLSearchParams, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  return listThreads(url, params, viewer, deps, base, 'post', {
    platform: 'instagram',
    earliestSince: 0,
    mediaJson,
    keep: (post) => post.record?.media_product_type !== 'STORY',
  });
}

/** GET /{user}/content_publishing_limit: what the moving 24 hours have used. */
async function publishingLimit(viewer: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const read = await withListingFaults(deps, { platform: 'instagram', accountId: viewer.id });
  if (read instanceof Response) return read;
  const since = Date.now() - QUOTA.windowMs;
  // Published media only: comments are not posts.
  const recent = (await deps.store.listAllPosts(viewer.id)).filter(
    (p) => p.kind === 'post' && p.createdAt.getTime() >= since,
  );
  return json(200, {
    data: [{ quota_usage: recent.length, config: { quota_total: QUOTA.max, quota_duration: QUOTA.windowMs / 1000 } }],
  });
}

/** An IG Media object with the requested fields (Graph returns only `id` by default). */
export function mediaJson(post: SandboxPost, author: SandboxAccount, fields: Set<string>, base: string) {
  const story = post.record?.media_product_type === 'STORY';
  const video = post.media.some((m) => m.type.startsWith('video/'));
  const all: Record<string, unknown> = {
    id: post.id,
    caption: post.text,
    media_type: post.media.length > 1 ? 'CAROUSEL_ALBUM' : video ? 'VIDEO' : 'IMAGE',
    media_product_type: story ? 'STORY' : video && post.media.length === 1 ? 'REELS' : 'FEED',
    timestamp: graphTime(post.createdAt),
    permalink: `${base}/v23.0/${post.id}?fields=id,caption,media_type,timestamp,permalink`,
    username: author.handle.replace(/^@/, ''),
    owner: { id: author.platformUserId },
  };
  return Object.fromEntries(Object.entries(all).filter(([key]) => key === 'id' || fields.has(key)));
}

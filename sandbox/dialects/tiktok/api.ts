import { withListingFaults, withWriteFaults } from '@/sandbox/behaviour/faults';
import { appOrigin } from '@/lib/providers/base-url';
import { bearerToken, readBody } from '@/sandbox/http/request';
import { fetchImageOverHttp, sha256Of } from '@/sandbox/http/media';
import type { SandboxAccount, SandboxDeps, SandboxPost, SandboxTiktokPublish } from '@/sandbox/store/types';
import { invalidParams, invalidToken, tiktokError, tiktokOk } from './errors';
import { publishStatus } from './publishes';
import { tiktokCaptionLength } from './text-length';
import { sniffVideoType } from './video';
import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';

// TikTok's API v2 (open.tiktokapis.com) as the sandbox serves it, from developers.tiktok.com: Content Posting API
// (creator_info/query, video/init, inbox/video/init, the upload URL, status/fetch) and Display API (user/info,
// video/list). As weak as the real thing: no idempotency at all (every init is a publish, and a publish becomes a post
// by itself), processing after the answer, and only public videos listed. Write faults apply to init and to each chunk.

const MAX_TITLE = 2_200;
/** The video object's title and description are cut at 150 characters in listings. */
const LISTED_TITLE = 150;
const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
/** A private account's creator_info: no public posts, and nobody may Duet or Stitch its videos. */
const PRIVATE_LEVELS = PRIVACY_LEVELS.filter((l) => l !== 'PUBLIC_TO_EVERYONE');
const MAX_DURATION_SEC = 600;
/** TikTok's processing after the last byte (a small video: well under half a minute). */
const PROCESSING_MS = 400;
/** Media Transfer Guide: under 5 MB a video goes whole; chunks of 5–64 MB, the last up to 128 MB. */
const MIN_CHUNK = 5 * 1024 * 1024;
const MAX_CHUNK = 64 * 1024 * 1024;
const MAX_VIDEO_BYTES = 4 * 1024 * 1024 * 1024;
/** "About 15 posts a day per creator" through the API (the cap is shared by every app); the inbox takes as many. */
const DAILY_CAP = { max: 15, windowMs: 24 * 3_600_000 };
/** The largest video the sandbox pulls from a URL. */
const MAX_PULLED_BYTES = 64 * 1024 * 1024;

/** `base` is this sandbox's TikTok root (e.g. http://127.0.0.1:3000/api/sandbox/tiktok), for upload URLs and links. */
export async function handleTiktok(request: Request, path: string, deps: SandboxDeps, base: string) {
  const method = request.method;
  const route = path.replace(/\/+$/, '');
  // The upload URL carries its own authority (upload_id), as TikTok's does: no bearer token.
  if (route === '/upload' && method === 'PUT') return uploadChunk(request, deps);
  const video = /^\/v2\/video\/(\d{1,19})$/.exec(route);
  if (video && method === 'GET' && !bearerToken(request) && deps.viewerScope)
    return viewVideo(request, video[1]!, deps);
  const token = bearerToken(request);
  const viewer = token ? await deps.store.authenticate('tiktok', token) : null;
  if (!viewer) return invalidToken();
  if (method === 'POST' && route === '/v2/post/publish/creator_info/query') return creatorInfo(viewer, deps);
  if (method === 'POST' && route === '/v2/post/publish/video/init') return init(request, viewer, deps, base, 'direct');
  if (method === 'POST' && route === '/v2/post/publish/inbox/video/init')
    return init(request, viewer, deps, base, 'inbox');
  if (method === 'POST' && route === '/v2/post/publish/status/fetch') return status(request, viewer, deps);
  if (method === 'POST' && route === '/v2/video/list') return listVideos(request, viewer, deps, base);
  if (method === 'POST' && route === '/v2/video/query') return queryVideos(request, viewer, deps);
  if (method === 'GET' && route === '/v2/user/info') return userInfo(request, viewer);
  return tiktokError(404, 'invalid_params', `Unknown path ${path}`);
}

/** What an unaudited app's creator may choose: the same options, but only SELF_ONLY is accepted at init. */
async function creatorInfo(viewer: SandboxAccount, deps: SandboxDeps) {
  const read = await withListingFaults(deps, { platform: 'tiktok', accountId: viewer.id });
  if (read instanceof Response) return read;
  const username = viewer.handle.replace(/^@/, '');
  const isPrivate = read.profile === 'tiktok-private';
  return tiktokOk({
    creator_avatar_url: '',
    creator_username: username,
    creator_nickname: viewer.displayName ?? username,
    privacy_level_options: isPrivate ? PRIVATE_LEVELS : PRIVACY_LEVELS,
    comment_disabled: false,
    duet_disabled: isPrivate,
    stitch_disabled: isPrivate,
    max_video_post_duration_sec: MAX_DURATION_SEC,
  });
}

/**
 * video/init (direct post: post_info + source_info) or inbox/video/init (source_info only). Each call makes a new
 * publish, however often the same video comes. PULL_FROM_URL fetches the URL here (through the sandbox's fetch and
 * its guard) and checks the bytes are a video; FILE_UPLOAD answers an upload URL and waits for the chunks.
 */
async function init(
  request: Request,
  viewer: SandboxAccount,
  deps: SandboxDeps,
  base: string,
  mode: 'direct' | 'inbox',
) {
  const body = (await readBody(request)) ?? {};
  const post = (body.post_info ?? {}) as Record<string, unknown>;
  const source = (body.source_info ?? {}) as Record<string, unknown>;
  const title = mode === 'direct' ? String(post.title ?? '') : '';
  if (tiktokCaptionLength(title) > MAX_TITLE)
    return invalidParams(`The title must be at most ${MAX_TITLE} characters.`);
  const privacyLevel = mode === 'direct' ? String(post.privacy_level ?? '') : null;
  if (mode === 'direct' && !PRIVACY_LEVELS.includes(privacyLevel!))
    return tiktokError(400, 'privacy_level_option_mismatch', 'privacy_level is not one of the creator’s options.');
  const upload = source.source === 'FILE_UPLOAD' ? fileUpload(source) : null;
  if (upload?.problem) return invalidParams(upload.problem);
  const videoUrl = source.source === 'PULL_FROM_URL' ? String(source.video_url ?? '') : null;
  if (!upload && !/^https?:\/\//.test(videoUrl ?? ''))
    return invalidParams('source_info.source must be FILE_UPLOAD (with sizes) or PULL_FROM_URL (with video_url).');
  return withWriteFaults(deps, request, { platform: 'tiktok', accountId: viewer.id }, async (context) => {
    if (context.profile === 'tiktok-private' && mode === 'direct' && !PRIVATE_LEVELS.includes(privacyLevel!))
      return tiktokError(400, 'privacy_level_option_mismatch', 'privacy_level is not one of the creator’s options.');
    if (context.profile === 'tiktok-unaudited' && mode === 'direct' && privacyLevel !== 'SELF_ONLY')
      return tiktokError(
        403,
        'unaudited_client_can_only_post_to_private_accounts',
        'Please review our integration guidelines at https://developers.tiktok.com/doc/content-sharing-guidelines/',
      );
    const since = new Date(Date.now() - DAILY_CAP.windowMs);
    if ((await deps.store.countTiktokPublishes({ accountId: viewer.id, mode, since })) >= DAILY_CAP.max)
      return tiktokError(
        403,
        mode === 'direct' ? 'spam_risk_too_many_posts' : 'spam_risk_too_many_pending_share',
        'The daily post cap from the API is reached for the current user.',
      );
    const publish = await deps.store.createTiktokPublish({
      accountId: viewer.id,
      mode,
      source: upload ? 'FILE_UPLOAD' : 'PULL_FROM_URL',
      title,
      privacyLevel,
      videoUrl,
      videoSize: upload?.videoSize ?? null,
      chunkSize: upload?.chunkSize ?? null,
      totalChunkCount: upload?.totalChunkCount ?? null,
    });
    if (upload)
      return tiktokOk({
        publish_id: publish.id,
        upload_url: `${base}/upload/?upload_id=${encodeURIComponent(publish.id)}`,
      });
    // TikTok downloads the video and processes it, whether or not the client still waits for this answer.
    const bytes = await (deps.fetchImage ?? ((url) => fetchImageOverHttp(url, appOrigin(), MAX_PULLED_BYTES)))(
      videoUrl!,
    );
    const type = bytes && sniffVideoType(bytes);
    announcePublish(
      deps,
      viewer,
      await deps.store.finishTiktokPublish({
        id: publish.id,
        account: viewer,
        readyAt: new Date(Math.max(context.createAt, Date.now()) + PROCESSING_MS),
        media: type ? [{ type, altText: '', sha256: sha256Of(bytes!) }] : [],
        failReason: !bytes ? 'video_pull_failed' : type ? null : 'file_format_check_failed',
      }),
    );
    return tiktokOk({ publish_id: publish.id });
  });
}

/**
 * The Content Posting webhooks of a finished publish, when processing ends (developers.tiktok.com/doc/webhooks-events):
 * `post.publish.failed` (with its reason), `post.publish.inbox_delivered`, or `post.publish.complete` and, for a public
 * post, `post.publish.publicly_available` with its post_id. Each is sent at least once, after its own delay: the two of
 * a public post may arrive in either order.
 */
function announcePublish(deps: SandboxDeps, account: SandboxAccount, publish: SandboxTiktokPublish | null) {
  if (!deps.webhooks || !publish?.readyAt) return;
  const publishType = publish.mode === 'inbox' ? 'INBOX_SHARE' : 'DIRECT_PUBLISH';
  const event = (name: string, content: Record<string, unknown>) =>
    deps.webhooks!.send(
      'tiktok',
      {
        client_key: 'sandbox',
        event: name,
        create_time: Math.floor(publish.readyAt!.getTime() / 1000),
        user_openid: account.platformUserId,
        content: JSON.stringify({ publish_id: publish.id, publish_type: publishType, ...content }),
      },
      publish.readyAt!,
    );
  if (publish.failReason) return event('post.publish.failed', { reason: publish.failReason });
  if (publish.mode === 'inbox') return event('post.publish.inbox_delivered', {});
  event('post.publish.complete', {});
  if (publish.privacyLevel === 'PUBLIC_TO_EVERYONE' && publish.postId)
    event('post.publish.publicly_available', { post_id: publish.postId });
}

/** FILE_UPLOAD's sizes, as the Media Transfer Guide sets them (total = floor(size / chunk); the last takes the rest). */
function fileUpload(source: Record<string, unknown>) {
  const [videoSize, chunkSize, totalChunkCount] = [source.video_size, source.chunk_size, source.total_chunk_count].map(
    Number,
  ) as [number, number, number];
  if (![videoSize, chunkSize, totalChunkCount].every((n) => Number.isInteger(n) && n > 0))
    return { problem: 'video_size, chunk_size and total_chunk_count must be positive integers.' };
  if (videoSize > MAX_VIDEO_BYTES) return { problem: 'The video is larger than 4 GB.' };
  const whole = videoSize < MIN_CHUNK || chunkSize === videoSize;
  if (whole ? chunkSize !== videoSize || totalChunkCount !== 1 : chunkSize < MIN_CHUNK || chunkSize > MAX_CHUNK)
    return { problem: 'chunk_size does not fit video_size (under 5 MB the video goes whole; chunks of 5–64 MB).' };
  if (!whole && totalChunkCount !== Math.floor(videoSize / chunkSize))
    return { problem: 'total_chunk_count must be video_size divided by chunk_size, rounded down.' };
  return { videoSize, chunkSize, totalChunkCount, problem: null };
}

/**
 * PUT {upload_url} with `Content-Range: bytes first-last/total`: chunks in order, each taken whole (206), the last one
 * completes the publish (201), which TikTok then processes and posts. The first chunk must be a video's start.
 */
async function uploadChunk(request: Request, deps: SandboxDeps) {
  const id = new URL(request.url).searchParams.get('upload_id') ?? '';
  const publish = id ? await deps.store.getTiktokPublish(id) : null;
  const account = publish ? await deps.store.getAccountById(publish.accountId) : null;
  if (!publish || !account || publish.source !== 'FILE_UPLOAD')
    return tiktokError(404, 'invalid_params', 'Unknown upload.');
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(request.headers.get('content-range') ?? '');
  const bytes = new Uint8Array(await request.arrayBuffer());
  const [first, last, total] = range ? [Number(range[1]), Number(range[2]), Number(range[3])] : [NaN, NaN, NaN];
  if (!range || total !== publish.videoSize || last - first + 1 !== bytes.length)
    return tiktokError(416, 'invalid_params', 'Content-Range does not match the chunk or the declared video_size.');
  const type = first === 0 ? sniffVideoType(bytes) : null;
  return withWriteFaults(deps, request, { platform: 'tiktok', accountId: account.id }, async (context) => {
    const taken = await deps.store.takeTiktokChunk({
      id,
      first,
      length: bytes.length,
      media:
        first === 0 ? [{ type: type ?? 'application/octet-stream', altText: '', sha256: sha256Of(bytes) }] : undefined,
    });
    if (!taken) return tiktokError(416, 'invalid_params', 'The chunk does not follow the bytes received.');
    if (taken.uploadedBytes < taken.videoSize!) return new Response(null, { status: 206 });
    const video = taken.media.filter((m) => m.type.startsWith('video/'));
    announcePublish(
      deps,
      account,
      await deps.store.finishTiktokPublish({
        id,
        account,
        readyAt: new Date(Math.max(context.createAt, Date.now()) + PROCESSING_MS),
        media: video,
        failReason: video.length > 0 ? null : 'file_format_check_failed',
      }),
    );
    return new Response(null, { status: 201 });
  });
}

/** status/fetch: the publish's stage; the post id only for a public post, once processing is over. */
async function status(request: Request, viewer: SandboxAccount, deps: SandboxDeps) {
  const body = (await readBody(request)) ?? {};
  const read = await withListingFaults(deps, { platform: 'tiktok', accountId: viewer.id });
  if (read instanceof Response) return read;
  const id = typeof body.publish_id === 'string' ? body.publish_id : '';
  const publish = id ? await deps.store.getTiktokPublish(id) : null;
  if (!publish || publish.accountId !== viewer.id)
    return tiktokError(400, 'invalid_publish_id', 'The publish_id does not exist or is not this user’s.');
  const stage = publishStatus(publish, new Date());
  const postId = stage === 'PUBLISH_COMPLETE' && publish.privacyLevel === 'PUBLIC_TO_EVERYONE' ? publish.postId : null;
  return tiktokOk({
    status: stage,
    ...(stage === 'FAILED' ? { fail_reason: publish.failReason } : {}),
    // An int64 JSON number, as TikTok writes it (a client that parses it as a double gets a wrong id).
    publicaly_available_post_id: postId ? [new RawJsonNumber(postId)] : [],
    ...(publish.source === 'FILE_UPLOAD' ? { uploaded_bytes: publish.uploadedBytes } : {}),
  });
}

/** video/list: the creator's public videos, newest first, 20 a page at most; `cursor` is a create_time in ms. */
async function listVideos(request: Request, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  const body = (await readBody(request)) ?? {};
  const read = await withListingFaults(deps, { platform: 'tiktok', accountId: viewer.id });
  if (read instanceof Response) return read;
  const maxCount = Math.min(20, Math.max(1, Number(body.max_count ?? 10) || 10));
  const cursor = Number(body.cursor);
  const upTo =
    Number.isFinite(cursor) && cursor > 0
      ? new Date(Math.min(cursor - 1, read.createdUpTo.getTime()))
      : read.createdUpTo;
  const fields = new Set((new URL(request.url).searchParams.get('fields') ?? 'id').split(','));
  const listed: SandboxPost[] = [];
  // Private posts and inbox drafts are stored too, never listed: read past them.
  for (let endTime = upTo; listed.length <= maxCount;) {
    const page = await deps.store.listPosts(viewer.id, { kinds: ['post'], endTime, createdUpTo: upTo, limit: 100 });
    listed.push(...page.filter(isListed));
    if (page.length < 100) break;
    endTime = new Date(page.at(-1)!.createdAt.getTime() - 1);
  }
  const videos = listed.slice(0, maxCount);
  return tiktokOk({
    videos: videos.map((p) => videoJson(p, fields, base)),
    cursor: videos.length > 0 ? videos.at(-1)!.createdAt.getTime() : 0,
    has_more: listed.length > maxCount,
  });
}

const isListed = (post: SandboxPost) => (post.record?.tiktok as { listed?: boolean } | undefined)?.listed === true;

function videoJson(post: SandboxPost, fields: Set<string>, base: string) {
  const title = post.text.slice(0, LISTED_TITLE);
  const all: Record<string, unknown> = {
    id: post.id,
    create_time: Math.floor(post.createdAt.getTime() / 1000),
    title,
    video_description: title,
    share_url: `${base}/v2/video/${post.id}`,
    duration: 0,
  };
  return Object.fromEntries(Object.entries(all).filter(([key]) => fields.has(key)));
}

/** Fields video/query answers (the Video Object's counts need video.list, which the app has). */
const QUERY_FIELDS = new Set([
  'id',
  'create_time',
  'title',
  'share_url',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
]);

/**
 * video/query: up to 20 of the creator's own public video ids (`filters.video_ids`); one that is not listed (deleted,
 * private, someone else's) is left out of `videos`.
 */
async function queryVideos(request: Request, viewer: SandboxAccount, deps: SandboxDeps) {
  const body = (await readBody(request)) ?? {};
  const ids = (body.filters as { video_ids?: unknown } | undefined)?.video_ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20 || ids.some((id) => typeof id !== 'string'))
    return invalidParams('filters.video_ids must list 1 to 20 video ids.');
  const fields = (new URL(request.url).searchParams.get('fields') ?? '').split(',').filter(Boolean);
  if (fields.length === 0 || fields.some((f) => !QUERY_FIELDS.has(f)))
    return invalidParams(`fields must be among ${[...QUERY_FIELDS].join(', ')}.`);
  const videos = [];
  for (const id of ids as string[]) {
    const post = /^\d{1,19}$/.test(id) ? await deps.store.getPost(id) : null;
    if (!post || post.accountId !== viewer.id || !isListed(post)) continue;
    const e = engagementOf(post, 'tiktok');
    const all: Record<string, unknown> = {
      id: post.id,
      create_time: Math.floor(post.createdAt.getTime() / 1000),
      title: post.text.slice(0, LISTED_TITLE),
      share_url: `https://www.tiktok.com/@${viewer.handle.replace(/^@/, '')}/video/${post.id}`,
      like_count: e.likes,
      comment_count: e.replies,
      share_count: e.reposts,
      view_count: e.views,
    };
    videos.push(Object.fromEntries(Object.entries(all).filter(([key]) => fields.includes(key))));
  }
  return tiktokOk({ videos, cursor: 0, has_more: false });
}

/** Without a token: a signed-in member of the account's workspace opens its videos (the app's "View post" links). */
async function viewVideo(request: Request, id: string, deps: SandboxDeps) {
  const scope = await deps.viewerScope!(request);
  const post = scope ? await deps.store.getPost(id) : null;
  const owner = post && scope?.find((s) => s.account.id === post.accountId)?.account;
  if (!post || !owner || owner.platform !== 'tiktok') return tiktokError(404, 'invalid_params', 'No such video.');
  return tiktokOk({
    video: { id: post.id, title: post.text, create_time: Math.floor(post.createdAt.getTime() / 1000) },
  });
}

/** Fields of user/info that need user.info.profile, a scope this app never asks for. */
const PROFILE_FIELDS = ['username', 'bio_description', 'profile_deep_link', 'is_verified'];

/**
 * user/info: open_id (the platform user id), union_id, display name, and follower_count (user.info.stats, which the
 * app asks for); profile fields are refused (no scope).
 */
function userInfo(request: Request, viewer: SandboxAccount) {
  const fields = new Set((new URL(request.url).searchParams.get('fields') ?? 'open_id').split(','));
  if (PROFILE_FIELDS.some((f) => fields.has(f)))
    return tiktokError(401, 'scope_not_authorized', 'The user did not authorize the scope required for this field.');
  const username = viewer.handle.replace(/^@/, '');
  const all: Record<string, unknown> = {
    open_id: viewer.platformUserId,
    union_id: viewer.platformUserId,
    display_name: viewer.displayName ?? username,
    follower_count: followersOf(viewer, 'tiktok'),
  };
  return tiktokOk({ user: Object.fromEntries(Object.entries(all).filter(([key]) => fields.has(key))) });
}

/** A JSON number written digit for digit (JSON.stringify would round a 19-digit id through a double). */
class RawJsonNumber {
  constructor(readonly digits: string) {}
  toJSON() {
    return `\u0000${this.digits}\u0000`;
  }
}

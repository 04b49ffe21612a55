import { isConnectionReset, withListingFaults, withWriteFaults } from '@/sandbox/behaviour/faults';
import { sniffImageType } from '@/lib/media/sniff';
import { bearerToken, readBody } from '@/sandbox/http/request';
import { sha256Of, sniffVideoType } from '@/sandbox/http/media';
import type { SandboxAccount, SandboxDeps, SandboxPost, SandboxYoutubeUpload } from '@/sandbox/store/types';
import { badRequest, googleError, googleJson, quotaExceeded, unauthorized } from './errors';
import { pacificDay } from './uploads';
import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';

// The YouTube Data API v3 as the sandbox serves it, from developers.google.com/youtube/v3: videos.insert by the
// resumable upload protocol (guides/using_resumable_upload_protocol: the session start answers a session URI in
// `Location`; PUTs of chunks answer 308 Resume Incomplete with `Range` until the last byte, then the video resource;
// `Content-Range: bytes */N` asks a session how far it got), channels.list (the uploads playlist),
// playlistItems.list, videos.list and videos.delete. As weak as the real thing: no idempotency (every session start
// is a new session, and every complete session a new video), processing after the upload, the Data API quota (10,000
// units a day per project, videos.insert 1,600: getting-started#quota). Write faults apply to the session start and to
// every chunk; a status query is a read.

/** Quota per project and Pacific day, and what each method costs (developers.google.com/youtube/v3/determine_quota_cost). */
export const YOUTUBE_DAILY_QUOTA = 10_000;
const COST = { insert: 1_600, list: 1, delete: 50, thumbnail: 50 } as const;
/** thumbnails.set: a JPEG or PNG of at most 2 MB. */
const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;
/** The whole sandbox is one Google Cloud project: every account this app connects shares its quota, as on Google. */
export const SANDBOX_PROJECT = 'semel-sandbox';
/** Chunks other than the last must be multiples of 256 KiB (the resumable upload guide). */
const CHUNK_MULTIPLE = 256 * 1024;
/** videos.insert: files up to 256 GB. */
const MAX_VIDEO_BYTES = 256 * 1024 ** 3;
/** YouTube's processing after the last byte (uploadStatus `uploaded` → `processed`). */
export const PROCESSING_MS = 400;
const PRIVACY = ['public', 'unlisted', 'private'];
const PAGE = 50;

export async function handleYoutube(request: Request, path: string, deps: SandboxDeps, base: string) {
  const method = request.method;
  const route = path.replace(/\/+$/, '');
  const url = new URL(request.url);
  // The session URI carries its own authority (upload_id), as Google's does.
  if (route === '/upload/youtube/v3/videos' && method === 'PUT') return sessionPut(request, url, deps, base);
  const token = bearerToken(request);
  const viewer = token ? await deps.store.authenticate('youtube', token) : null;
  if (!viewer) return unauthorized();
  if (route === '/upload/youtube/v3/videos' && method === 'POST') return startSession(request, url, viewer, deps, base);
  if (route === '/upload/youtube/v3/thumbnails/set' && method === 'POST')
    return thumbnailsSet(request, url, viewer, deps);
  if (route === '/youtube/v3/channels' && method === 'GET') return channels(url, viewer, deps);
  if (route === '/youtube/v3/playlistItems' && method === 'GET') return playlistItems(url, viewer, deps, base);
  if (route === '/youtube/v3/videos' && method === 'GET') return videosList(url, viewer, deps, base);
  if (route === '/youtube/v3/videos' && method === 'DELETE') return videosDelete(url, viewer, deps);
  return googleError(404, 'notFound', `Unknown path ${path}`, 'global');
}

const spend = (deps: SandboxDeps, units: number) =>
  deps.store.spendYoutubeQuota({
    project: SANDBOX_PROJECT,
    day: pacificDay(new Date()),
    units,
    limit: YOUTUBE_DAILY_QUOTA,
  });

/** A channel id is the account's platform user id (`UC` + 22 characters); its uploads playlist is `UU` + the same. */
export const channelIdOf = (account: SandboxAccount) => account.platformUserId;
const uploadsPlaylistOf = (account: SandboxAccount) => `UU${account.platformUserId.replace(/^UC/, '')}`;

/** The `<` and `>` YouTube refuses in a title or a description (invalidTitle, invalidDescription). */
const ANGLE = /[<>]/;

/**
 * videos.insert?uploadType=resumable: the video resource (snippet, status) checked as YouTube does, then a new session
 * whatever came before. The quota is spent here, before a byte arrives.
 */
async function startSession(request: Request, url: URL, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  if (url.searchParams.get('uploadType') !== 'resumable')
    return badRequest('invalidUploadType', 'This sandbox takes resumable uploads only (uploadType=resumable).');
  const parts = (url.searchParams.get('part') ?? '').split(',');
  if (!parts.includes('snippet')) return badRequest('missingRequiredParameter', 'part must include snippet.');
  const declared = Number(request.headers.get('x-upload-content-length'));
  if (!Number.isInteger(declared) || declared <= 0 || declared > MAX_VIDEO_BYTES)
    return badRequest('invalidContentLength', 'X-Upload-Content-Length must be the file size in bytes.');
  const contentType = request.headers.get('x-upload-content-type') ?? 'application/octet-stream';
  if (!contentType.startsWith('video/') && contentType !== 'application/octet-stream')
    return badRequest('invalidContentType', 'X-Upload-Content-Type must be video/* or application/octet-stream.');
  const body = (await readBody(request)) ?? {};
  const snippet = (body.snippet ?? {}) as Record<string, unknown>;
  const status = (body.status ?? {}) as Record<string, unknown>;
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  const tags = Array.isArray(snippet.tags) ? snippet.tags.filter((t): t is string => typeof t === 'string') : [];
  // videos resource: title required, at most 100 characters, no < or >; description at most 5,000 bytes, no < or >.
  if (!title.trim() || [...title].length > 100 || ANGLE.test(title))
    return badRequest('invalidTitle', 'The video title is empty, longer than 100 characters or contains < or >.');
  if (Buffer.byteLength(description, 'utf8') > 5_000 || ANGLE.test(description))
    return badRequest('invalidDescription', 'The description is longer than 5,000 bytes or contains < or >.');
  // snippet.tags: 500 characters in all, a tag with a space counted with its quotes.
  if (tags.reduce((n, t) => n + t.length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1) > 500)
    return badRequest('invalidTags', 'The tags are longer than 500 characters in all.');
  const privacyStatus = typeof status.privacyStatus === 'string' ? status.privacyStatus : 'public';
  if (!PRIVACY.includes(privacyStatus)) return badRequest('invalidVideoMetadata', 'Unknown privacyStatus.');
  let publishAt: Date | null = null;
  if (status.publishAt !== undefined) {
    // status.publishAt: only for a private video, and in the future (invalidPublishAt).
    publishAt = new Date(String(status.publishAt));
    if (Number.isNaN(publishAt.getTime()) || publishAt.getTime() <= Date.now() || privacyStatus !== 'private')
      return badRequest('invalidPublishAt', 'publishAt must be a future time, on a private video.');
  }
  return withWriteFaults(deps, request, { platform: 'youtube', accountId: viewer.id }, async () => {
    if (!(await spend(deps, COST.insert))) return quotaExceeded();
    const upload = await deps.store.createYoutubeUpload({
      accountId: viewer.id,
      title,
      description,
      tags,
      privacyStatus,
      publishAt,
      contentType,
      declaredBytes: declared,
    });
    const location = `${base}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${encodeURIComponent(upload.id)}`;
    return new Response(null, { status: 200, headers: { location, 'x-guploader-uploadid': upload.id } });
  });
}

/** A session PUT: `bytes *\/N` with no body asks how far it got; `bytes a-b/N` carries one chunk. */
async function sessionPut(request: Request, url: URL, deps: SandboxDeps, base: string) {
  const id = url.searchParams.get('upload_id') ?? '';
  const upload = id ? await deps.store.getYoutubeUpload(id) : null;
  const account = upload ? await deps.store.getAccountById(upload.accountId) : null;
  if (!upload || !account) return googleError(404, 'notFound', 'The upload session does not exist or has expired.');
  const range = request.headers.get('content-range') ?? '';
  const query = /^bytes \*\/(\d+)$/.exec(range);
  if (query) {
    await request.arrayBuffer();
    if (Number(query[1]) !== upload.declaredBytes)
      return badRequest('invalidContentRange', 'The total in Content-Range is not the declared size.');
    const read = await withListingFaults(deps, { platform: 'youtube', accountId: account.id });
    if (read instanceof Response) return read;
    return sessionAnswer(upload, account, base);
  }
  const chunk = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
  const bytes = new Uint8Array(await request.arrayBuffer());
  const [first, last, total] = chunk ? [Number(chunk[1]), Number(chunk[2]), Number(chunk[3])] : [NaN, NaN, NaN];
  if (!chunk || total !== upload.declaredBytes || last - first + 1 !== bytes.length || last >= total)
    return badRequest('invalidContentRange', 'Content-Range does not match the chunk or the declared size.');
  const final = last === total - 1;
  if (!final && bytes.length % CHUNK_MULTIPLE !== 0)
    return badRequest('invalidChunkSize', 'A chunk other than the last must be a multiple of 256 KiB.');
  // Checked, not just accepted: the first bytes must be an MP4 or MOV (an ISO base media `ftyp` box).
  const type = first === 0 ? sniffVideoType(bytes) : null;
  const answer = await withWriteFaults(
    deps,
    request,
    { platform: 'youtube', accountId: account.id },
    async (context) => {
      const taken = await deps.store.takeYoutubeChunk({
        id,
        first,
        length: bytes.length,
        media:
          first === 0
            ? [{ type: type ?? 'application/octet-stream', altText: '', sha256: sha256Of(bytes) }]
            : undefined,
      });
      if (!taken) {
        const now = await deps.store.getYoutubeUpload(id);
        if (now?.completedAt) return sessionAnswer(now, account, base);
        return badRequest('invalidContentRange', 'The chunk does not start where the received bytes end.');
      }
      // Marked 200 so the after-commit faults apply; turned into YouTube's 308 below.
      if (taken.uploadedBytes < taken.declaredBytes)
        return new Response(null, { status: 200, headers: { 'x-sandbox-received': String(taken.uploadedBytes) } });
      // The last byte: YouTube finishes the upload (slow when processing is slow), whether or not the client waits.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, context.createAt - Date.now())));
      const video = taken.media.some((m) => m.type === 'video/mp4' || m.type === 'video/quicktime');
      const done = await deps.store.completeYoutubeUpload({
        id,
        account,
        readyAt: new Date(Date.now() + PROCESSING_MS),
        failReason: video ? null : 'invalidFile',
      });
      return sessionAnswer(done ?? (await deps.store.getYoutubeUpload(id))!, account, base);
    },
  );
  const received = answer.headers.get('x-sandbox-received');
  if (received === null || answer.status !== 200 || isConnectionReset(answer)) return answer;
  return resumeIncomplete(Number(received));
}

/** 308 Resume Incomplete, `Range: bytes=0-<last received>` (no Range before the first byte). */
function resumeIncomplete(received: number) {
  return new Response(null, { status: 308, headers: received > 0 ? { range: `bytes=0-${received - 1}` } : {} });
}

/** How a session stands: incomplete → 308; complete → 200 with the video resource (a failed one says why). */
function sessionAnswer(upload: SandboxYoutubeUpload, account: SandboxAccount, base: string) {
  if (!upload.completedAt) return resumeIncomplete(upload.uploadedBytes);
  return googleJson(200, videoResource(upload, account, base, upload.postId ?? upload.id));
}

function uploadStatusOf(upload: SandboxYoutubeUpload) {
  if (upload.failReason) return 'failed';
  return upload.readyAt && upload.readyAt.getTime() <= Date.now() ? 'processed' : 'uploaded';
}

function videoResource(upload: SandboxYoutubeUpload, account: SandboxAccount, base: string, id: string) {
  return {
    kind: 'youtube#video',
    id,
    snippet: {
      publishedAt: (upload.completedAt ?? upload.createdAt).toISOString(),
      channelId: channelIdOf(account),
      title: upload.title,
      description: upload.description,
      tags: upload.tags,
      channelTitle: account.displayName ?? account.handle,
    },
    status: {
      uploadStatus: uploadStatusOf(upload),
      ...(upload.failReason ? { failureReason: upload.failReason } : {}),
      privacyStatus: upload.privacyStatus,
      ...(upload.publishAt ? { publishAt: upload.publishAt.toISOString() } : {}),
    },
    player: { embedHtml: `${base}/watch/${id}` },
  };
}

/** A video's `statistics` as the Data API writes them: int64 counts as strings; favoriteCount is always "0". */
function statisticsOf(post: SandboxPost) {
  const e = engagementOf(post, 'youtube');
  return {
    statistics: {
      viewCount: String(e.views),
      likeCount: String(e.likes),
      favoriteCount: '0',
      commentCount: String(e.replies),
    },
  };
}

/** channels.list?mine=true: the token's channel, its uploads playlist in contentDetails.relatedPlaylists. */
async function channels(url: URL, viewer: SandboxAccount, deps: SandboxDeps) {
  if (url.searchParams.get('mine') !== 'true')
    return badRequest('missingRequiredParameter', 'This sandbox answers channels.list with mine=true only.');
  const read = await withListingFaults(deps, { platform: 'youtube', accountId: viewer.id });
  if (read instanceof Response) return read;
  if (!(await spend(deps, COST.list))) return quotaExceeded();
  const handle = viewer.handle.startsWith('@') ? viewer.handle : `@${viewer.handle}`;
  const parts = new Set((url.searchParams.get('part') ?? 'snippet').split(','));
  return googleJson(200, {
    kind: 'youtube#channelListResponse',
    items: [
      {
        kind: 'youtube#channel',
        id: channelIdOf(viewer),
        snippet: { title: viewer.displayName ?? handle, customUrl: handle.toLowerCase() },
        contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(viewer) } },
        ...(parts.has('statistics')
          ? {
              statistics: {
                viewCount: '0',
                subscriberCount: String(followersOf(viewer, 'youtube')),
                hiddenSubscriberCount: false,
                videoCount: String((await deps.store.countPosts([viewer.id])).get(viewer.id) ?? 0),
              },
            }
          : {}),
      },
    ],
  });
}

/** The videos a complete session made on the account, by post id. */
async function uploadsByPost(viewer: SandboxAccount, deps: SandboxDeps) {
  const map = new Map<string, SandboxYoutubeUpload>();
  for (const u of await deps.store.listYoutubeUploads(viewer.id)) if (u.postId) map.set(u.postId, u);
  return map;
}

/**
 * playlistItems.list on the uploads playlist: the owner's videos, newest first, 50 a page at most (`pageToken`).
 * A video is listed once processing ends and past the read lag; private and scheduled ones too (the owner reads).
 */
async function playlistItems(url: URL, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  if (url.searchParams.get('playlistId') !== uploadsPlaylistOf(viewer))
    return googleError(
      404,
      'playlistNotFound',
      'The playlist identified with the playlistId parameter cannot be found.',
    );
  const read = await withListingFaults(deps, { platform: 'youtube', accountId: viewer.id });
  if (read instanceof Response) return read;
  if (!(await spend(deps, COST.list))) return quotaExceeded();
  const max = Math.min(PAGE, Math.max(1, Number(url.searchParams.get('maxResults') ?? 5) || 5));
  const token = url.searchParams.get('pageToken');
  const before = token ? new Date(Number(Buffer.from(token, 'base64url').toString())) : null;
  const uploads = await uploadsByPost(viewer, deps);
  const now = Date.now();
  const listed: SandboxPost[] = [];
  for (let endTime = before ?? read.createdUpTo; listed.length <= max;) {
    const page = await deps.store.listPosts(viewer.id, {
      kinds: ['post'],
      endTime,
      createdUpTo: read.createdUpTo,
      limit: 100,
    });
    listed.push(...page.filter((p) => (uploads.get(p.id)?.readyAt?.getTime() ?? Infinity) <= now));
    if (page.length < 100) break;
    endTime = new Date(page.at(-1)!.createdAt.getTime() - 1);
  }
  const items = listed.slice(0, max);
  const last = items.at(-1);
  return googleJson(200, {
    kind: 'youtube#playlistItemListResponse',
    items: items.map((p) => {
      const upload = uploads.get(p.id)!;
      return {
        kind: 'youtube#playlistItem',
        id: `PI${p.id}`,
        snippet: {
          publishedAt: p.createdAt.toISOString(),
          channelId: channelIdOf(viewer),
          title: upload.title,
          description: p.text,
          playlistId: uploadsPlaylistOf(viewer),
          resourceId: { kind: 'youtube#video', videoId: p.id },
        },
        contentDetails: { videoId: p.id, videoPublishedAt: p.createdAt.toISOString() },
        status: { privacyStatus: upload.privacyStatus },
      };
    }),
    ...(listed.length > max && last
      ? { nextPageToken: Buffer.from(String(last.createdAt.getTime() - 1)).toString('base64url') }
      : {}),
    pageInfo: { totalResults: listed.length, resultsPerPage: max },
  });
  void base;
}

/** videos.list?id=…: the account's videos (their processing state in status.uploadStatus). */
async function videosList(url: URL, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  const read = await withListingFaults(deps, { platform: 'youtube', accountId: viewer.id });
  if (read instanceof Response) return read;
  if (!(await spend(deps, COST.list))) return quotaExceeded();
  const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
  const uploads = await uploadsByPost(viewer, deps);
  const items = [];
  const parts = new Set((url.searchParams.get('part') ?? 'snippet').split(','));
  for (const id of ids) {
    const upload = uploads.get(id);
    const post = upload ? await deps.store.getPost(id) : null;
    if (!upload || !post) continue;
    items.push({ ...videoResource(upload, viewer, base, id), ...(parts.has('statistics') ? statisticsOf(post) : {}) });
  }
  return googleJson(200, { kind: 'youtube#videoListResponse', items });
}

/** videos.delete?id=…: 204; a video that is not (or no longer) the account's is 404 videoNotFound. */
async function videosDelete(url: URL, viewer: SandboxAccount, deps: SandboxDeps) {
  if (!(await spend(deps, COST.delete))) return quotaExceeded();
  const result = await deps.store.deletePost(viewer.id, url.searchParams.get('id') ?? '');
  if (result.status !== 'deleted')
    return googleError(
      404,
      'videoNotFound',
      'The video that you are trying to delete cannot be found.',
      'youtube.video',
    );
  return new Response(null, { status: 204 });
}

/**
 * thumbnails.set?videoId=…: the image's bytes as the body, checked (JPEG or PNG, at most 2 MB: mediaBodyTooLarge,
 * invalidImage) and set on the account's video (videoNotFound otherwise). Setting it again replaces it.
 */
async function thumbnailsSet(request: Request, url: URL, viewer: SandboxAccount, deps: SandboxDeps) {
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > MAX_THUMBNAIL_BYTES) return badRequest('mediaBodyTooLarge', 'The thumbnail is larger than 2 MB.');
  const type = sniffImageType(bytes);
  if (type !== 'image/jpeg' && type !== 'image/png')
    return badRequest('invalidImage', 'The thumbnail is not a JPEG or PNG image.');
  if (!(await spend(deps, COST.thumbnail))) return quotaExceeded();
  const videoId = url.searchParams.get('videoId') ?? '';
  if (!(await deps.store.setYoutubeThumbnail({ accountId: viewer.id, videoId, sha256: sha256Of(bytes) })))
    return googleError(
      404,
      'videoNotFound',
      'The video that you are trying to update cannot be found.',
      'youtube.thumbnail',
    );
  return googleJson(200, {
    kind: 'youtube#thumbnailSetResponse',
    items: [{ default: { url: `https://i.ytimg.com/vi/${videoId}/default.jpg`, width: 120, height: 90 } }],
  });
}

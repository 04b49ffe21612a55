import { randomBytes, randomUUID } from 'node:crypto';
import { SANDBOX_OAUTH_CLIENT_ID } from '@/lib/providers/catalog';
import { json, withWriteFaults, type CommitContext } from '@/sandbox/behaviour/faults';
import { writeWithProfile } from '@/sandbox/behaviour/profiles';
import { postMediaOf, readMultipart, storeImage } from '@/sandbox/http/media';
import { bearerToken, readBody } from '@/sandbox/http/request';
import {
  graphError,
  invalidParameter,
  invalidToken,
  unknownPath,
  unsupportedRequest,
} from '@/sandbox/dialects/threads/errors';
import { graphTime, listThreads } from '@/sandbox/dialects/threads/reads';
import { hashSandboxToken } from '@/sandbox/oauth/tokens';
import type { SandboxAccount, SandboxDeps, SandboxPost, SandboxPostMedia } from '@/sandbox/store/types';
import { facebookAdministratorOf, facebookPagesOf } from './identity';
import { FACEBOOK_MAX_MESSAGE, facebookMessageLength } from './text-length';
import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';
import { videoJson, videoPhase } from './video';

// The Graph API for Facebook Pages (graph.facebook.com) as the sandbox serves it, from developers.facebook.com/docs/
// pages-api/posts, …/graph-api/reference/page/photos, …/page/feed, …/video-api and …/facebook-login (long-lived
// tokens, /me/accounts). As weak as the real thing: no idempotency and no dedupe (every feed or photo request that
// arrives is a post), photos uploaded with `published=false` are not posts until a feed post names them in
// `attached_media`, a page's posts are read back from `published_posts`, and videos go through the resumable upload
// (video.ts). Write faults apply to the requests that make a post (feed, a published photo, a video's finish);
// unpublished photos see only latency, like Meta's containers.

const MAX_ATTACHED = 10;
/** Long-lived user tokens last about 60 days. */
const LONG_LIVED_SECONDS = 60 * 86_400;
/** Page tokens from a long-lived user token "do not expire": the sandbox's OAuth store wants a date, so ten years. */
const PAGE_TOKEN_SECONDS = 10 * 365 * 86_400;

/** `base` is this sandbox's Facebook root (e.g. http://127.0.0.1:3000/api/sandbox/facebook), for permalinks. */
export async function handleFacebook(request: Request, path: string, deps: SandboxDeps, base: string) {
  const url = new URL(request.url);
  const multipart = request.method === 'POST' ? await readMultipart(request.clone(), 'source') : null;
  const params = new URLSearchParams(url.searchParams);
  if (multipart) for (const [k, v] of Object.entries(multipart.fields)) params.set(k, v);
  else if (request.method === 'POST')
    for (const [k, v] of Object.entries((await readBody(request)) ?? {})) if (typeof v === 'string') params.set(k, v);
  // A video chunk travels as `video_file_chunk`, a photo as `source`.
  const file =
    multipart?.bytes ??
    (params.get('upload_phase') === 'transfer'
      ? (await readMultipart(request.clone(), 'video_file_chunk'))?.bytes
      : null) ??
    null;
  const route = path.replace(/^\/v\d+\.\d+/, '').replace(/\/+$/, '');

  if (route === '/oauth/access_token' && request.method === 'GET') return exchange(params, deps);
  const token = bearerToken(request) ?? params.get('access_token');
  const viewer = token ? await deps.store.authenticate('facebook', token) : null;
  if (token && !viewer) return invalidToken();
  const node = /^\/([^/]+)(?:\/([a-z_]+))?$/.exec(route);
  if (!node) return unknownPath(path);
  const id = decodeURIComponent(node[1]!);
  const edge = node[2];
  if (!viewer) {
    if (request.method === 'GET' && !edge && !token && deps.viewerScope) return viewPost(request, id, deps, base);
    return graphError(400, { message: 'An active access token must be used to query information.', code: 2500 });
  }
  if (id === 'me' && edge === 'accounts' && request.method === 'GET') return pageAccounts(viewer, deps);
  if (edge) {
    const page = id === 'me' ? viewer : id === viewer.platformUserId ? viewer : null;
    if (!page) return notAPageToken(id);
    if (edge === 'feed' && request.method === 'POST') return createFeedPost(request, params, page, deps);
    if (edge === 'photos' && request.method === 'POST') return uploadPhoto(request, params, file, page, deps);
    if (edge === 'videos' && request.method === 'POST') return videoPhase(request, params, file, page, deps);
    if ((edge === 'published_posts' || edge === 'feed') && request.method === 'GET')
      return listThreads(url, params, page, deps, base, 'post', {
        platform: 'facebook',
        earliestSince: 0,
        mediaJson: postJson,
      });
    return unknownPath(path);
  }
  if (request.method === 'GET') return getNode(params, id, viewer, deps, base);
  if (request.method === 'DELETE') return deletePost(id, viewer, deps);
  return unknownPath(path);
}

/** POST /{page-id}/feed: `message`, `link`, `attached_media[n]={"media_fbid":…}` (the page's unpublished photos). */
async function createFeedPost(request: Request, params: URLSearchParams, page: SandboxAccount, deps: SandboxDeps) {
  const message = params.get('message') ?? '';
  const link = params.get('link');
  if (facebookMessageLength(message) > FACEBOOK_MAX_MESSAGE)
    return invalidParameter(`The message must be at most ${FACEBOOK_MAX_MESSAGE} characters.`);
  if (link !== null && !/^https?:\/\/\S+$/.test(link)) return invalidParameter('The link must be a web address.');
  const attached = [...params.keys()].filter((k) => /^attached_media\[\d+\]$/.test(k));
  if (attached.length > MAX_ATTACHED) return invalidParameter(`A post takes at most ${MAX_ATTACHED} photos.`);
  const media: SandboxPostMedia[] = [];
  for (const key of attached) {
    let fbid: unknown;
    try {
      fbid = (JSON.parse(params.get(key)!) as { media_fbid?: unknown }).media_fbid;
    } catch {
      return invalidParameter(`${key} must be {"media_fbid":"…"}.`);
    }
    const photo = typeof fbid === 'string' && /^\d+$/.test(fbid) ? await deps.store.getMedia(fbid) : null;
    if (!photo || photo.accountId !== page.id) return invalidParameter(`The photo ${String(fbid)} is not this page’s.`);
    media.push(postMediaOf(photo));
  }
  if (!message && !link && media.length === 0) return invalidParameter('A post needs a message, a link or photos.');
  return withWriteFaults(deps, request, { platform: 'facebook', accountId: page.id }, async (context) => {
    const post = await createPost(deps, page, { text: message, media, link }, context);
    return json(200, { id: postIdOf(page, post) });
  });
}

/**
 * POST /{page-id}/photos (multipart `source`): `published=false` stores the photo for a later feed post (not a post),
 * otherwise it is a photo post with `message` as its caption → `{ id, post_id }`. The bytes must be an image.
 */
async function uploadPhoto(
  request: Request,
  params: URLSearchParams,
  file: Uint8Array | null,
  page: SandboxAccount,
  deps: SandboxDeps,
) {
  if (!file) return invalidParameter('source (the photo’s bytes) is required.');
  const message = params.get('message') ?? '';
  if (facebookMessageLength(message) > FACEBOOK_MAX_MESSAGE)
    return invalidParameter(`The message must be at most ${FACEBOOK_MAX_MESSAGE} characters.`);
  const unpublished = params.get('published') === 'false';
  const write = async (context?: CommitContext) => {
    const photo = await storeImage(deps, page, file, { altText: params.get('alt_text_custom') ?? '' });
    if (!photo) return graphError(400, { message: '(#324) Missing or invalid image file', code: 324 });
    if (unpublished) return json(200, { id: photo.id });
    const post = await createPost(deps, page, { text: message, media: [postMediaOf(photo)] }, context!);
    return json(200, { id: photo.id, post_id: postIdOf(page, post) });
  };
  if (unpublished) {
    const faults = await deps.store.getFaults(page.id);
    if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    return write();
  }
  return withWriteFaults(deps, request, { platform: 'facebook', accountId: page.id }, write);
}

/**
 * One post as the page's profile writes it (sandbox/behaviour/profiles.ts: no key, no dedupe), created when the
 * platform gets to it (slow processing), whether or not the client still waits.
 */
async function createPost(
  deps: SandboxDeps,
  page: SandboxAccount,
  input: { text: string; media: SandboxPostMedia[]; link?: string | null },
  context: CommitContext,
): Promise<SandboxPost> {
  const written = await writeWithProfile(
    deps.store,
    {
      account: page,
      kind: 'post',
      text: input.text,
      media: input.media,
      record: input.link ? { facebook: { link: input.link } } : null,
    },
    context,
  );
  if (written.status !== 'created') throw new Error(`a Facebook page write ended ${written.status}`);
  return written.post;
}

/** A page post's id as Graph names it: `{page-id}_{post-id}`. */
const postIdOf = (page: SandboxAccount, post: SandboxPost) => `${page.platformUserId}_${post.id}`;

/** GET /{id}: the token's own page or user, one of the page's posts (`{page}_{post}`), or one of its videos. */
async function getNode(params: URLSearchParams, id: string, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  // A field may carry modifiers (`reactions.summary(total_count).limit(0)`): what it names is before the first dot.
  const fields = new Set(
    (params.get('fields') ?? 'id')
      .split(',')
      .filter(Boolean)
      .map((f) => f.split('.')[0]!),
  );
  if (id === 'me' || id === viewer.platformUserId)
    return json(200, {
      id: viewer.platformUserId,
      ...(fields.has('name') ? { name: viewer.displayName ?? viewer.handle } : {}),
      ...(fields.has('followers_count') ? { followers_count: followersOf(viewer, 'facebook') } : {}),
    });
  const post = await ownPost(id, viewer, deps);
  if (post) return json(200, postJson(post, viewer, fields, base));
  const video = await deps.store.getTiktokPublish(id);
  if (video && video.accountId === viewer.id && !video.videoUrl)
    return json(200, videoJson(video, viewer, fields, base));
  return unsupportedRequest('get', id);
}

async function ownPost(id: string, page: SandboxAccount, deps: SandboxDeps) {
  const match = /^(\d+)_(\d{1,19})$/.exec(id);
  if (!match || match[1] !== page.platformUserId) return null;
  const post = await deps.store.getPost(match[2]!);
  return post && post.accountId === page.id && post.kind === 'post' ? post : null;
}

/** DELETE /{post-id}: the page's own post; anything else (gone, not its own) is Graph's "unsupported". */
async function deletePost(id: string, page: SandboxAccount, deps: SandboxDeps) {
  const post = await ownPost(id, page, deps);
  const result = post ? await deps.store.deletePost(page.id, post.id) : null;
  if (result?.status !== 'deleted') return unsupportedRequest('delete', id);
  return json(200, { success: true });
}

/** A page post with the requested fields (Graph returns only `id` by default). */
function postJson(post: SandboxPost, page: SandboxAccount, fields: Set<string>, base: string) {
  const id = postIdOf(page, post);
  const link = (post.record?.facebook as { link?: string } | undefined)?.link;
  const all: Record<string, unknown> = {
    id,
    message: post.text,
    created_time: graphTime(post.createdAt),
    permalink_url: `${base}/v23.0/${id}?fields=id,message,created_time,permalink_url`,
    from: { id: page.platformUserId, name: page.displayName ?? page.handle },
    attachments: {
      data: [
        ...post.media.map((m) => ({
          type: m.type.startsWith('video/') ? 'video_inline' : 'photo',
          media_type: m.type,
        })),
        ...(link ? [{ type: 'share', url: link }] : []),
      ],
    },
    ...engagementFields(post),
  };
  return Object.fromEntries(Object.entries(all).filter(([key]) => key === 'id' || fields.has(key)));
}

/** A post's reactions and comments as summaries (their lists asked with `.limit(0)`), and `shares` once shared. */
function engagementFields(post: SandboxPost) {
  const e = engagementOf(post, 'facebook');
  return {
    reactions: { data: [], summary: { total_count: e.likes, viewer_reaction: 'NONE' } },
    comments: { data: [], summary: { order: 'ranked', total_count: e.replies, can_comment: true } },
    // Graph leaves `shares` out of a post nobody shared.
    ...(e.reposts > 0 ? { shares: { count: e.reposts } } : {}),
  };
}

/** Without a token: a signed-in member of the page's workspace opens its posts (the app's "View post" links). */
async function viewPost(request: Request, id: string, deps: SandboxDeps, base: string) {
  const scope = await deps.viewerScope!(request);
  const pageId = /^(\d+)_\d+$/.exec(id)?.[1];
  const page = pageId
    ? scope?.find((s) => s.account.platform === 'facebook' && s.account.platformUserId === pageId)
    : null;
  const post = page ? await ownPost(id, page.account, deps) : null;
  if (!page || !post) return unsupportedRequest('get', id);
  const fields = new Set((new URL(request.url).searchParams.get('fields') ?? 'id').split(',').filter(Boolean));
  return json(200, postJson(post, page.account, fields, base));
}

/**
 * GET /me/accounts with a user token: the pages the user administers, each with a page token (issued here, for the
 * page's own sandbox account), and the tasks the user may perform there.
 */
async function pageAccounts(user: SandboxAccount, deps: SandboxDeps) {
  if (facebookAdministratorOf(user.platformUserId) !== null) return notAUserToken();
  const data = [];
  for (const pageId of facebookPagesOf(user.platformUserId)) {
    const page = await deps.store.getAccount('facebook', pageId);
    if (!page) continue;
    const pageToken = `sbx_pat_${randomBytes(24).toString('base64url')}`;
    await deps.store.oauth.issueTokens([
      {
        tokenHash: hashSandboxToken(pageToken),
        kind: 'access',
        accountId: page.id,
        clientId: SANDBOX_OAUTH_CLIENT_ID,
        familyId: randomUUID(),
        scope: 'pages_manage_posts pages_read_engagement',
        expiresAt: new Date(Date.now() + PAGE_TOKEN_SECONDS * 1000),
      },
    ]);
    data.push({
      id: page.platformUserId,
      name: page.displayName ?? page.handle,
      access_token: pageToken,
      category: 'Product/service',
      tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'],
    });
  }
  return json(200, { data, paging: { cursors: { before: 'MA', after: 'MA' } } });
}

/**
 * GET /oauth/access_token?grant_type=fb_exchange_token&client_id&fb_exchange_token: a long-lived user token for a
 * live short one (the sandbox's client is public: no secret).
 */
async function exchange(params: URLSearchParams, deps: SandboxDeps) {
  if (params.get('grant_type') !== 'fb_exchange_token')
    return invalidParameter('grant_type must be fb_exchange_token.');
  if (params.get('client_id') !== SANDBOX_OAUTH_CLIENT_ID)
    return graphError(400, { message: 'Error validating application. Invalid application ID.', code: 101 });
  const short = params.get('fb_exchange_token') ?? '';
  const user = short ? await deps.store.authenticate('facebook', short) : null;
  if (!user) return invalidToken();
  const token = `sbx_${randomBytes(24).toString('base64url')}`;
  await deps.store.oauth.issueTokens([
    {
      tokenHash: hashSandboxToken(token),
      kind: 'access',
      accountId: user.id,
      clientId: SANDBOX_OAUTH_CLIENT_ID,
      familyId: randomUUID(),
      scope: 'pages_show_list pages_manage_posts',
      expiresAt: new Date(Date.now() + LONG_LIVED_SECONDS * 1000),
    },
  ]);
  return json(200, { access_token: token, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
}

/** A page's edge with a token that is not that page's (a user token, another page's). */
const notAPageToken = (id: string) =>
  graphError(403, {
    message: `(#200) Posting to or reading the page ${id} requires that page's access token (pages_manage_posts).`,
    type: 'OAuthException',
    code: 200,
  });

const notAUserToken = () =>
  graphError(400, {
    message: '(#100) Tried accessing nonexisting field (accounts) on node type (Page)',
    code: 100,
  });

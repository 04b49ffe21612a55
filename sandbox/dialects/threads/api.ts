import { randomBytes, randomUUID } from 'node:crypto';
import { json, withListingFaults, withWriteFaults } from '@/sandbox/behaviour/faults';
import { SANDBOX_OAUTH_CLIENT_ID } from '@/lib/providers/catalog';
import { bearerToken, readBody } from '@/sandbox/http/request';
import { CONTAINER_TTL_MS, containerStatus } from './containers';
import {
  graphError,
  invalidParameter,
  invalidToken,
  mediaNotFound,
  requestLimitReached,
  unknownPath,
  unsupportedRequest,
} from './errors';
import { listThreads, mediaJson, publishingLimit } from './reads';
import { sniffImageType } from '@/lib/media/sniff';
import { fetchImageOverHttp, sha256Of } from '@/sandbox/http/media';
import { hashSandboxToken } from '@/sandbox/oauth/tokens';
import type { SandboxAccount, SandboxDeps, SandboxPostMedia } from '@/sandbox/store/types';
import { threadsLength } from './text-length';

// The Threads API (graph.threads.net) as the sandbox serves it: a post is made in two steps, a media
// container (POST /{user}/threads) and its publication (POST /{user}/threads_publish?creation_id=…).
// Shapes from developers.facebook.com/docs/threads (posts, troubleshooting, retrieve posts, delete posts,
// overview → rate limiting, long-lived tokens). Write faults apply to threads_publish, the step that makes
// a post; creating a container is not public, so it only sees latency and slow processing.

const MAX_TEXT = 500;
/** "Threads profiles are limited to 250 API-published posts within a 24-hour moving period." */
const POST_QUOTA = { max: 250, windowMs: 24 * 3_600_000 };
/** "…limited to 1,000 API-published replies within a 24-hour moving period." */
const REPLY_QUOTA = { max: 1_000, windowMs: 24 * 3_600_000 };
/** Long-lived tokens last 60 days; a refresh gives another 60. */
const LONG_LIVED_SECONDS = 60 * 86_400;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** `base` is this sandbox's Threads root (e.g. http://127.0.0.1:3000/api/sandbox/threads), for permalinks. */
export async function handleThreads(request: Request, path: string, deps: SandboxDeps, base: string) {
  const url = new URL(request.url);
  const params = await requestParams(request, url);
  const token = bearerToken(request) ?? params.get('access_token');
  const viewer = token ? await deps.store.authenticate('threads', token) : null;
  if (token && !viewer) return invalidToken();
  const method = request.method;

  if (path === '/refresh_access_token' && method === 'GET') {
    if (!viewer) return invalidToken();
    if (params.get('grant_type') !== 'th_refresh_token') return invalidParameter('grant_type must be th_refresh_token');
    return issueLongLivedToken(viewer, deps);
  }
  if (path === '/access_token' && method === 'GET') {
    if (!viewer) return invalidToken();
    if (params.get('grant_type') !== 'th_exchange_token')
      return invalidParameter('grant_type must be th_exchange_token');
    return issueLongLivedToken(viewer, deps);
  }
  // Graph serves each path with or without a version prefix.
  const node = /^(?:\/v\d+\.\d+)?\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path);
  if (!node) return unknownPath(path);
  const id = decodeURIComponent(node[1]!);
  const edge = node[2];
  if (!viewer) {
    // Only the app's "View post" links read without a token (a signed-in member of the account's workspace).
    if (method === 'GET' && !edge && !token && deps.viewerScope) return viewPost(request, id, deps, base);
    return graphError(400, { message: 'An active access token must be used to query information.', code: 2500 });
  }
  if (edge) {
    if (id !== 'me' && id !== viewer.platformUserId) return unsupportedRequest(method === 'GET' ? 'get' : 'post', id);
    if (edge === 'threads' && method === 'POST') return createContainer(params, viewer, deps);
    if (edge === 'threads_publish' && method === 'POST') return publishContainer(request, params, viewer, deps);
    if ((edge === 'threads' || edge === 'replies') && method === 'GET')
      return listThreads(url, params, viewer, deps, base, edge === 'threads' ? 'post' : 'reply');
    if (edge === 'threads_publishing_limit' && method === 'GET') return publishingLimit(viewer, deps);
    return unknownPath(path);
  }
  if (method === 'GET') return getNode(params, id, viewer, deps, base);
  if (method === 'DELETE') return deleteMedia(id, viewer, deps);
  return unknownPath(path);
}

/** Graph takes parameters in the query string or the body (form or JSON); the body wins. */
async function requestParams(request: Request, url: URL): Promise<URLSearchParams> {
  const params = new URLSearchParams(url.searchParams);
  if (request.method === 'POST') {
    const body = await readBody(request);
    for (const [key, value] of Object.entries(body ?? {})) {
      if (value !== undefined && value !== null) params.set(key, typeof value === 'string' ? value : String(value));
    }
  }
  return params;
}

/**
 * POST /{user}/threads: a media container (TEXT, IMAGE or CAROUSEL), optionally a reply. Not a post yet. An IMAGE
 * container's `image_url` is fetched by the platform itself (here, before answering); Threads takes JPEG and PNG,
 * and an image it cannot fetch or read leaves the container in ERROR. A CAROUSEL names 2–20 item containers.
 */
async function createContainer(params: URLSearchParams, viewer: SandboxAccount, deps: SandboxDeps) {
  const mediaType = params.get('media_type');
  if (!mediaType) return invalidParameter('The parameter media_type is required.');
  if (mediaType !== 'TEXT' && mediaType !== 'IMAGE' && mediaType !== 'CAROUSEL')
    return invalidParameter(`media_type ${mediaType} is not supported by this sandbox (TEXT, IMAGE, CAROUSEL).`);
  if (params.get('auto_publish_text') === 'true')
    return invalidParameter('auto_publish_text is not supported by this sandbox.');
  const text = params.get('text') ?? '';
  if (mediaType === 'TEXT' && text.trim() === '') return invalidParameter('The parameter text is required.');
  if (threadsLength(text) > MAX_TEXT)
    return invalidParameter(`Param text must be at most ${MAX_TEXT} characters long.`);
  const imageUrl = params.get('image_url');
  if (mediaType === 'IMAGE' && !/^https?:\/\//.test(imageUrl ?? ''))
    return invalidParameter('The parameter image_url is required.');
  const replyTo = params.get('reply_to_id');
  if (replyTo !== null) {
    const parent = await deps.store.getPost(replyTo);
    const parentAccount = parent ? await deps.store.getAccountById(parent.accountId) : null;
    if (!parent || parent.kind === 'dm' || parentAccount?.platform !== 'threads')
      return invalidParameter('reply_to_id is not a Threads media id that can be replied to.');
  }
  let media: SandboxPostMedia[] = [];
  let errorMessage: string | null = null;
  if (mediaType === 'CAROUSEL') {
    const children = (params.get('children') ?? '').split(',').filter(Boolean);
    if (children.length < 2 || children.length > 20)
      return invalidParameter('The parameter children must name 2 to 20 carousel item containers.');
    for (const id of children) {
      const child = /^\d{1,19}$/.test(id) ? await deps.store.getContainer(id) : null;
      if (!child || child.accountId !== viewer.id || child.mediaType !== 'IMAGE' || child.errorMessage)
        return invalidParameter(`The carousel item ${id} is not a finished item container of this user.`);
      media.push(...child.media);
    }
  }
  if (mediaType === 'IMAGE') {
    const bytes = await (deps.fetchImage ?? fetchImageOverHttp)(imageUrl!);
    const type = bytes && sniffImageType(bytes);
    if (bytes && (type === 'image/jpeg' || type === 'image/png'))
      media = [{ type, altText: params.get('alt_text') ?? '', sha256: sha256Of(bytes) }];
    else errorMessage = 'UNKNOWN'; // not fetched, or not a JPEG or PNG
  }
  const faults = await deps.store.getFaults(viewer.id);
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  // Slow processing: the container stays IN_PROGRESS that long (publishing it before then fails).
  const slow =
    faults.processingMs > 0 && (faults.processingShare >= 1 || (deps.random ?? Math.random)() < faults.processingShare);
  const container = await deps.store.createContainer({
    accountId: viewer.id,
    kind: replyTo ? 'reply' : 'post',
    mediaType,
    text,
    imageUrl: mediaType === 'IMAGE' ? imageUrl : null,
    media,
    inReplyToId: replyTo,
    readyAt: new Date(Date.now() + (slow ? faults.processingMs : 0)),
    errorMessage,
  });
  return json(200, { id: container.id });
}

/**
 * POST /{user}/threads_publish?creation_id=…: one compare-and-set in the store. What Threads answers for a
 * container that is already published is not documented; the sandbox refuses it with an error rather than
 * answering the post's id again (the less forgiving choice: a client cannot learn an outcome by resending).
 * The `plain` profile goes further and publishes it again, as a second post.
 */
async function publishContainer(request: Request, params: URLSearchParams, viewer: SandboxAccount, deps: SandboxDeps) {
  const containerId = params.get('creation_id');
  if (!containerId) return invalidParameter('The parameter creation_id is required.');
  return withWriteFaults(deps, request, { platform: 'threads', accountId: viewer.id }, async (context) => {
    // Threads looks at the container when the request arrives: one still processing is not found yet.
    const container = await deps.store.getContainer(containerId);
    if (container?.accountId === viewer.id && containerStatus(container, new Date()) === 'IN_PROGRESS')
      return mediaNotFound(containerId);
    await sleep(context.createAt - Date.now()); // slow processing: the post is made later, client or not
    const result = await deps.store.publishContainer({
      account: viewer,
      containerId,
      ttlMs: CONTAINER_TTL_MS,
      republish: context.profile === 'plain',
      quota: container?.kind === 'reply' ? REPLY_QUOTA : POST_QUOTA,
    });
    if (result.status === 'published') return json(200, { id: result.post.id });
    switch (result.reason) {
      case 'missing':
      case 'in_progress':
        return mediaNotFound(containerId);
      case 'quota':
        return requestLimitReached(
          result.container?.kind === 'reply'
            ? 'The reply publishing limit (1000 per 24 hours) has been reached.'
            : 'The publishing limit (250 posts per 24 hours) has been reached.',
        );
      case 'published':
        return invalidParameter('The media container has already been published.');
      case 'expired':
        return invalidParameter('The media container has expired: it was not published within 24 hours.');
      case 'error':
        return invalidParameter(`The media container failed processing: ${result.container?.errorMessage}.`);
    }
  });
}

/** GET /{id}: a container's status, a post (media object), or a user. */
async function getNode(params: URLSearchParams, id: string, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  const fields = new Set((params.get('fields') ?? 'id').split(',').filter(Boolean));
  const container = await deps.store.getContainer(id);
  if (container && container.accountId === viewer.id) {
    const read = await withListingFaults(deps, { platform: 'threads', accountId: viewer.id });
    if (read instanceof Response) return read;
    const extra = [...fields].find((f) => !['id', 'status', 'error_message'].includes(f));
    if (extra) return nonexistingField(extra, 'ThreadsMediaContainer');
    const status = containerStatus(container, new Date());
    return json(200, {
      ...(fields.has('status') ? { status } : {}),
      id: container.id,
      ...(fields.has('error_message') && status === 'ERROR' ? { error_message: container.errorMessage } : {}),
    });
  }
  if (id === 'me' || id === viewer.platformUserId) return json(200, userJson(viewer, fields));
  const post = await deps.store.getPost(id);
  if (!post || post.accountId !== viewer.id || post.kind === 'dm') return unsupportedRequest('get', id);
  // Status fields exist on containers only; a published post's media id has none.
  const missing = [...fields].find((f) => f === 'status' || f === 'error_message');
  if (missing) return nonexistingField(missing, 'ThreadsMedia');
  return json(200, mediaJson(post, viewer, fields, base));
}

/** Without a token: a signed-in member of the account's workspace opens its posts (the app's links). */
async function viewPost(request: Request, id: string, deps: SandboxDeps, base: string) {
  const scope = await deps.viewerScope!(request);
  if (!scope)
    return graphError(400, { message: 'An active access token must be used to query information.', code: 2500 });
  const post = await deps.store.getPost(id);
  const owner = post && scope.find((s) => s.account.id === post.accountId)?.account;
  if (!post || !owner || post.kind === 'dm') return unsupportedRequest('get', id);
  const fields = new Set((new URL(request.url).searchParams.get('fields') ?? 'id').split(',').filter(Boolean));
  return json(200, mediaJson(post, owner, fields, base));
}

/** DELETE /{media-id}: the author's own post; anything else (gone, not theirs) is Graph's "unsupported". */
async function deleteMedia(id: string, viewer: SandboxAccount, deps: SandboxDeps) {
  const result = await deps.store.deletePost(viewer.id, id);
  if (result.status !== 'deleted') return unsupportedRequest('delete', id);
  return json(200, { success: true, deleted_id: id });
}

function nonexistingField(field: string, nodeType: string) {
  return graphError(400, {
    message: `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
    type: 'THApiException',
    code: 100,
  });
}

function userJson(account: SandboxAccount, fields: Set<string>) {
  const username = account.handle.replace(/^@/, '');
  return {
    id: account.platformUserId,
    ...(fields.has('username') ? { username } : {}),
    ...(fields.has('name') ? { name: account.displayName ?? username } : {}),
  };
}

/**
 * The exchange (th_exchange_token) and the refresh (th_refresh_token) both answer a new 60-day token: a real
 * token of the sandbox's OAuth server, so it expires and can be revoked like any other.
 */
async function issueLongLivedToken(viewer: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const token = `sbx_${randomBytes(24).toString('base64url')}`;
  await deps.store.oauth.issueTokens([
    {
      tokenHash: hashSandboxToken(token),
      kind: 'access',
      accountId: viewer.id,
      clientId: SANDBOX_OAUTH_CLIENT_ID,
      familyId: randomUUID(),
      scope: 'threads_basic threads_content_publish',
      expiresAt: new Date(Date.now() + LONG_LIVED_SECONDS * 1000),
    },
  ]);
  return json(200, { access_token: token, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
}

import { randomBytes, randomUUID } from 'node:crypto';
import { json, withListingFaults, withWriteFaults } from '@/sandbox/behaviour/faults';
import { SANDBOX_OAUTH_CLIENT_ID } from '@/lib/providers/catalog';
import { bearerToken, readBody } from '@/sandbox/http/request';
import { CONTAINER_TTL_MS, containerStatus } from '../threads/containers';
import {
  graphError,
  invalidParameter,
  invalidToken,
  mediaNotFound,
  requestLimitReached,
  unknownPath,
  unsupportedRequest,
} from '../threads/errors';
import { followersOf } from '@/sandbox/behaviour/engagement';
import { hashSandboxToken } from '@/sandbox/oauth/tokens';
import type {
  NewSandboxContainer,
  Platform,
  SandboxAccount,
  SandboxContainer,
  SandboxDeps,
  SandboxPost,
} from '@/sandbox/store/types';

// Meta's container APIs as the sandbox serves them (Threads at graph.threads.net, Instagram at graph.instagram.com):
// a post is made in two steps, a media container (POST /{user}/<create edge>) and its publication
// (POST /{user}/<publish edge>?creation_id=…). Shapes from developers.facebook.com/docs/threads and
// …/docs/instagram-platform (content publishing, containers, troubleshooting, long-lived tokens). Write faults apply
// to the publish step, the one that makes a post; creating a container is not public, so it only sees latency and
// slow processing. What differs between the two is a GraphDialect (sandbox/dialects/threads, …/instagram).

export type GraphDialect = {
  platform: Extract<Platform, 'threads' | 'instagram'>;
  /** The grants of the long-lived token calls, and the scope their tokens carry. */
  exchangeGrant: string;
  refreshGrant: string;
  scope: string;
  createEdge: string;
  publishEdge: string;
  /** The account's listings, and the kind of post each shows. */
  listings: Record<string, 'post' | 'reply'>;
  limitEdge: string;
  /** The container's status field and its error field, and the node types Graph names in its errors. */
  statusField: string;
  errorField: string;
  containerNode: string;
  mediaNode: string;
  /** POST /{user}/<create edge>: checks the parameters, fetches the media, stores the container. */
  createContainer(params: URLSearchParams, viewer: SandboxAccount, deps: SandboxDeps): Promise<Response>;
  /** At most this many posts of the container's kind in the window; the refusal's words. */
  quota(container: SandboxContainer | null): { max: number; windowMs: number; message: string };
  listPosts(
    url: URL,
    params: URLSearchParams,
    viewer: SandboxAccount,
    deps: SandboxDeps,
    base: string,
    edge: string,
  ): Promise<Response>;
  publishingLimit(viewer: SandboxAccount, deps: SandboxDeps): Promise<Response>;
  mediaJson(post: SandboxPost, author: SandboxAccount, fields: Set<string>, base: string): Record<string, unknown>;
  /** Edges on one of the account's media objects (Instagram's `/{media}/comments`), by name; none elsewhere. */
  mediaEdges?: Record<string, (call: MediaEdgeCall) => Promise<Response>>;
  /** Reads on the account's own node beyond its listings (Threads' `/{user}/threads_insights`), by edge name. */
  userEdges?: Record<string, (call: Omit<MediaEdgeCall, 'mediaId'>) => Promise<Response>>;
  /** Instagram's API deletes nothing. */
  canDelete: boolean;
};

export type MediaEdgeCall = {
  request: Request;
  url: URL;
  params: URLSearchParams;
  mediaId: string;
  viewer: SandboxAccount;
  deps: SandboxDeps;
  base: string;
};

/** Long-lived tokens last 60 days; a refresh gives another 60. */
const LONG_LIVED_SECONDS = 60 * 86_400;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** `base` is this sandbox's root for the network (e.g. http://127.0.0.1:3000/api/sandbox/threads), for permalinks. */
export const graphDialect =
  (dialect: GraphDialect) => async (request: Request, path: string, deps: SandboxDeps, base: string) => {
    const url = new URL(request.url);
    const params = await requestParams(request, url);
    const token = bearerToken(request) ?? params.get('access_token');
    const viewer = token ? await deps.store.authenticate(dialect.platform, token) : null;
    if (token && !viewer) return invalidToken();
    const method = request.method;

    if (path === '/refresh_access_token' && method === 'GET') {
      if (!viewer) return invalidToken();
      if (params.get('grant_type') !== dialect.refreshGrant)
        return invalidParameter(`grant_type must be ${dialect.refreshGrant}`);
      return issueLongLivedToken(viewer, deps, dialect.scope);
    }
    if (path === '/access_token' && method === 'GET') {
      if (!viewer) return invalidToken();
      if (params.get('grant_type') !== dialect.exchangeGrant)
        return invalidParameter(`grant_type must be ${dialect.exchangeGrant}`);
      return issueLongLivedToken(viewer, deps, dialect.scope);
    }
    // Graph serves each path with or without a version prefix.
    const node = /^(?:\/v\d+\.\d+)?\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path);
    if (!node) return unknownPath(path);
    const id = decodeURIComponent(node[1]!);
    const edge = node[2];
    if (!viewer) {
      // Only the app's "View post" links read without a token (a signed-in member of the account's workspace).
      if (method === 'GET' && !edge && !token && deps.viewerScope) return viewPost(dialect, request, id, deps, base);
      return graphError(400, { message: 'An active access token must be used to query information.', code: 2500 });
    }
    if (edge) {
      const onMedia = dialect.mediaEdges?.[edge];
      if (onMedia && id !== 'me' && /^\d{1,19}$/.test(id))
        return onMedia({ request, url, params, mediaId: id, viewer, deps, base });
      if (id !== 'me' && id !== viewer.platformUserId) return unsupportedRequest(method === 'GET' ? 'get' : 'post', id);
      if (edge === dialect.createEdge && method === 'POST') return dialect.createContainer(params, viewer, deps);
      if (edge === dialect.publishEdge && method === 'POST')
        return publishContainer(dialect, request, params, viewer, deps);
      if (Object.hasOwn(dialect.listings, edge) && method === 'GET')
        return dialect.listPosts(url, params, viewer, deps, base, edge);
      if (edge === dialect.limitEdge && method === 'GET') return dialect.publishingLimit(viewer, deps);
      const onUser = dialect.userEdges?.[edge];
      if (onUser && method === 'GET') return onUser({ request, url, params, viewer, deps, base });
      return unknownPath(path);
    }
    if (method === 'GET') return getNode(dialect, params, id, viewer, deps, base);
    if (method === 'DELETE' && dialect.canDelete) return deleteMedia(id, viewer, deps);
    return unknownPath(path);
  };

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
 * Stores a new container (not a post: nothing is public until it is published) with the account's container
 * faults: latency, and slow processing (IN_PROGRESS that long, for a share of containers; publishing it before then
 * fails). `processingMs` is the platform's own processing time (Instagram's video), added to the fault's.
 */
export async function storeContainer(
  deps: SandboxDeps,
  viewer: SandboxAccount,
  container: Omit<NewSandboxContainer, 'accountId' | 'readyAt'>,
  processingMs = 0,
): Promise<Response> {
  const faults = await deps.store.getFaults(viewer.id);
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  const slow =
    faults.processingMs > 0 && (faults.processingShare >= 1 || (deps.random ?? Math.random)() < faults.processingShare);
  const stored = await deps.store.createContainer({
    ...container,
    accountId: viewer.id,
    readyAt: new Date(Date.now() + processingMs + (slow ? faults.processingMs : 0)),
  });
  return json(200, { id: stored.id });
}

/**
 * POST /{user}/<publish edge>?creation_id=…: one compare-and-set in the store. What Meta answers for a
 * container that is already published is not documented; the sandbox refuses it with an error rather than
 * answering the post's id again (the less forgiving choice: a client cannot learn an outcome by resending).
 * The `plain` profile goes further and publishes it again, as a second post.
 */
async function publishContainer(
  dialect: GraphDialect,
  request: Request,
  params: URLSearchParams,
  viewer: SandboxAccount,
  deps: SandboxDeps,
) {
  const containerId = params.get('creation_id');
  if (!containerId) return invalidParameter('The parameter creation_id is required.');
  return withWriteFaults(deps, request, { platform: dialect.platform, accountId: viewer.id }, async (context) => {
    // The platform looks at the container when the request arrives: one still processing is not found yet.
    const container = await deps.store.getContainer(containerId);
    if (container?.accountId === viewer.id && containerStatus(container, new Date()) === 'IN_PROGRESS')
      return notReady(dialect, containerId);
    await sleep(context.createAt - Date.now()); // slow processing: the post is made later, client or not
    const quota = dialect.quota(container);
    const result = await deps.store.publishContainer({
      account: viewer,
      containerId,
      ttlMs: CONTAINER_TTL_MS,
      republish: context.profile === 'plain',
      quota: { max: quota.max, windowMs: quota.windowMs },
    });
    if (result.status === 'published') return json(200, { id: result.post.id });
    switch (result.reason) {
      case 'missing':
        return mediaNotFound(containerId);
      case 'in_progress':
        return notReady(dialect, containerId);
      case 'quota':
        return quotaSpent(dialect, quota.message);
      case 'published':
        return invalidParameter('The media container has already been published.');
      case 'expired':
        return invalidParameter('The media container has expired: it was not published within 24 hours.');
      case 'error':
        return invalidParameter(`The media container failed processing: ${result.container?.errorMessage}.`);
    }
  });
}

/** A container still processing: Threads does not find it yet (24/4279009); Instagram says it is not ready (9007/2207027). */
function notReady(dialect: GraphDialect, containerId: string) {
  if (dialect.platform === 'threads') return mediaNotFound(containerId);
  return graphError(400, {
    message: 'The media is not ready for publishing, please wait for a moment',
    code: 9007,
    subcode: 2207027,
    userTitle: 'Media ID is not available',
  });
}

/** Threads throttles (code 4); Instagram answers 9 / 2207042 "max posts reached". */
function quotaSpent(dialect: GraphDialect, message: string) {
  if (dialect.platform === 'threads') return requestLimitReached(message);
  return graphError(400, {
    message: 'Application request limit reached',
    code: 9,
    subcode: 2207042,
    userTitle: 'Max posts reached',
    userMessage: message,
  });
}

/** GET /{id}: a container's status, a post (media object), or a user. */
async function getNode(
  dialect: GraphDialect,
  params: URLSearchParams,
  id: string,
  viewer: SandboxAccount,
  deps: SandboxDeps,
  base: string,
) {
  const fields = new Set((params.get('fields') ?? 'id').split(',').filter(Boolean));
  const container = await deps.store.getContainer(id);
  if (container && container.accountId === viewer.id) {
    const read = await withListingFaults(deps, { platform: dialect.platform, accountId: viewer.id });
    if (read instanceof Response) return read;
    const extra = [...fields].find((f) => !['id', dialect.statusField, dialect.errorField].includes(f));
    if (extra) return nonexistingField(extra, dialect.containerNode);
    const status = containerStatus(container, new Date());
    return json(200, {
      ...(fields.has(dialect.statusField) ? { [dialect.statusField]: status } : {}),
      id: container.id,
      ...(fields.has(dialect.errorField) && status === 'ERROR' ? { [dialect.errorField]: container.errorMessage } : {}),
    });
  }
  if (id === 'me' || id === viewer.platformUserId) return json(200, userJson(dialect.platform, viewer, fields));
  const post = await deps.store.getPost(id);
  if (!post || post.accountId !== viewer.id || post.kind === 'dm') return unsupportedRequest('get', id);
  // Status fields exist on containers only; a published post's media id has none.
  const missing = [...fields].find((f) => f === dialect.statusField || f === dialect.errorField);
  if (missing) return nonexistingField(missing, dialect.mediaNode);
  return json(200, dialect.mediaJson(post, viewer, fields, base));
}

/** Without a token: a signed-in member of the account's workspace opens its posts (the app's links). */
async function viewPost(dialect: GraphDialect, request: Request, id: string, deps: SandboxDeps, base: string) {
  const scope = await deps.viewerScope!(request);
  if (!scope)
    return graphError(400, { message: 'An active access token must be used to query information.', code: 2500 });
  const post = await deps.store.getPost(id);
  const owner = post && scope.find((s) => s.account.id === post.accountId)?.account;
  if (!post || !owner || post.kind === 'dm') return unsupportedRequest('get', id);
  const fields = new Set((new URL(request.url).searchParams.get('fields') ?? 'id').split(',').filter(Boolean));
  return json(200, dialect.mediaJson(post, owner, fields, base));
}

/** DELETE /{media-id}: the author's own post; anything else (gone, not theirs) is Graph's "unsupported". */
async function deleteMedia(id: string, viewer: SandboxAccount, deps: SandboxDeps) {
  const result = await deps.store.deletePost(viewer.id, id);
  if (result.status !== 'deleted') return unsupportedRequest('delete', id);
  return json(200, { success: true, deleted_id: id });
}

export function nonexistingField(field: string, nodeType: string) {
  return graphError(400, {
    message: `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
    type: 'THApiException',
    code: 100,
  });
}

function userJson(platform: GraphDialect['platform'], account: SandboxAccount, fields: Set<string>) {
  const username = account.handle.replace(/^@/, '');
  return {
    // Instagram's professional account has the field; a Threads user reads it from its insights instead.
    ...(platform === 'instagram' && fields.has('followers_count')
      ? { followers_count: followersOf(account, platform) }
      : {}),
    id: account.platformUserId,
    // Instagram: the professional account's id (the one publishing uses) beside the app-scoped `id`.
    ...(fields.has('user_id') ? { user_id: account.platformUserId } : {}),
    ...(fields.has('username') ? { username } : {}),
    ...(fields.has('name') ? { name: account.displayName ?? username } : {}),
  };
}

/**
 * The exchange and the refresh (th_/ig_exchange_token, th_/ig_refresh_token) both answer a new 60-day token: a real
 * token of the sandbox's OAuth server, so it expires and can be revoked like any other.
 */
async function issueLongLivedToken(viewer: SandboxAccount, deps: SandboxDeps, scope: string): Promise<Response> {
  const token = `sbx_${randomBytes(24).toString('base64url')}`;
  await deps.store.oauth.issueTokens([
    {
      tokenHash: hashSandboxToken(token),
      kind: 'access',
      accountId: viewer.id,
      clientId: SANDBOX_OAUTH_CLIENT_ID,
      familyId: randomUUID(),
      scope,
      expiresAt: new Date(Date.now() + LONG_LIVED_SECONDS * 1000),
    },
  ]);
  return json(200, { access_token: token, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
}

import { randomUUID } from 'node:crypto';
import {
  bareHandle,
  blobCid,
  POST_COLLECTION,
  recordCid,
  recordJson,
  recordUri,
  TID_SYNTAX,
  validatePostRecord,
} from './records';
import { createAccount } from './create-account';
import { checkSandboxSession, issueSandboxSession } from './session';
import { json, withListingFaults, withWriteFaults } from '@/sandbox/behaviour/faults';
import { mediaOfRecord } from '@/sandbox/http/media';
import { putRecordWithProfile } from '@/sandbox/behaviour/profiles';
import { bearerToken, readBody } from '@/sandbox/http/request';
import type { SandboxAccount, SandboxDeps } from '@/sandbox/store/types';
import { isPerson } from '@/sandbox/behaviour/people';
import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';
import { tidOf } from './tid';

// A PDS's XRPC API (AT Protocol) as the sandbox serves it, under /api/sandbox/bluesky/xrpc/<method>: sign-up
// (createAccount), sessions with an app password, putRecord with swapRecord, getRecord, listRecords, deleteRecord, resolveHandle and
// uploadBlob. Answers and errors follow the PDS source (github.com/bluesky-social/atproto, packages/pds).
// Where it differs, it is stricter: only app.bsky.feed.post records; a record is never overwritten (a PDS
// updates one given no swapRecord); reads need the account's own session or a signed-in member of its
// workspace (a PDS serves records to anyone; the sandbox keeps workspaces apart); listRecords lists newest
// first only. One leniency, about media and never about how many posts a resend makes: blobs are not kept,
// so a record naming a blob that was never uploaded is not refused.

const xrpcError = (status: number, error: string, message: string) => json(status, { error, message });
const invalidRequest = (message: string) => xrpcError(400, 'InvalidRequest', message);
const recordNotFound = (uri: string) => xrpcError(400, 'RecordNotFound', `Could not locate record: ${uri}`);
const authRequired = () => xrpcError(401, 'AuthenticationRequired', 'Authentication Required');

type Handler = (request: Request, deps: SandboxDeps) => Promise<Response>;

const METHODS: Record<string, { verb: 'GET' | 'POST'; handle: Handler }> = {
  'com.atproto.server.createAccount': { verb: 'POST', handle: createAccount },
  'com.atproto.server.createSession': { verb: 'POST', handle: createSession },
  'com.atproto.server.refreshSession': { verb: 'POST', handle: refreshSession },
  'com.atproto.server.getSession': { verb: 'GET', handle: getSession },
  'com.atproto.repo.putRecord': { verb: 'POST', handle: putRecord },
  'com.atproto.repo.getRecord': { verb: 'GET', handle: getRecord },
  'com.atproto.repo.listRecords': { verb: 'GET', handle: listRecords },
  'com.atproto.repo.deleteRecord': { verb: 'POST', handle: deleteRecord },
  'com.atproto.repo.uploadBlob': { verb: 'POST', handle: uploadBlob },
  'com.atproto.identity.resolveHandle': { verb: 'GET', handle: resolveHandle },
  // The AppView's reads, as a PDS serves them by proxying to it (the counts come from the AppView's index).
  'app.bsky.feed.getPosts': { verb: 'GET', handle: getPosts },
  'app.bsky.actor.getProfile': { verb: 'GET', handle: getProfile },
};

export async function handleBluesky(request: Request, path: string, deps: SandboxDeps): Promise<Response> {
  const nsid = /^\/xrpc\/([a-zA-Z0-9.-]+)$/.exec(path)?.[1];
  const method = nsid ? METHODS[nsid] : undefined;
  if (!method) return xrpcError(501, 'MethodNotImplemented', 'Method Not Implemented');
  if (request.method !== method.verb)
    return invalidRequest(`Incorrect HTTP method (${request.method}) expected ${method.verb}`);
  return method.handle(request, deps);
}

/** The session's account, or the PDS's answer to a missing, invalid or expired token. */
async function session(
  request: Request,
  deps: SandboxDeps,
  kind: 'access' | 'refresh' = 'access',
  acceptExpired = false,
) {
  const check = await checkSandboxSession(deps.store, bearerToken(request), kind, { acceptExpired });
  return check.ok ? check.account : xrpcError(check.status, check.error, check.message);
}

async function sessionJson(account: SandboxAccount, deps: SandboxDeps) {
  const tokenHash = await deps.store.getTokenHash(account.id);
  const { accessJwt, refreshJwt } = issueSandboxSession(account.platformUserId, tokenHash!);
  return { accessJwt, refreshJwt, did: account.platformUserId, handle: bareHandle(account), active: true };
}

/** The app password is the sandbox account's token; the identifier its handle or DID. */
async function createSession(request: Request, deps: SandboxDeps): Promise<Response> {
  const body = await readBody(request);
  if (!body) return invalidRequest('Request body is not valid JSON');
  const { identifier, password } = body;
  if (typeof identifier !== 'string') return invalidRequest('Input must have the property "identifier"');
  if (typeof password !== 'string') return invalidRequest('Input must have the property "password"');
  const account = await deps.store.authenticate('bluesky', password);
  const wanted = identifier.replace(/^@/, '').toLowerCase();
  if (!account || (wanted !== bareHandle(account).toLowerCase() && wanted !== account.platformUserId))
    return xrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password');
  return json(200, await sessionJson(account, deps));
}

async function refreshSession(request: Request, deps: SandboxDeps): Promise<Response> {
  const account = await session(request, deps, 'refresh');
  if (account instanceof Response) return account;
  return json(200, await sessionJson(account, deps));
}

async function getSession(request: Request, deps: SandboxDeps): Promise<Response> {
  const account = await session(request, deps);
  if (account instanceof Response) return account;
  return json(200, { did: account.platformUserId, handle: bareHandle(account), active: true });
}

const isOwnRepo = (account: SandboxAccount, repo: unknown) =>
  typeof repo === 'string' && (repo === account.platformUserId || repo === bareHandle(account));

async function putRecord(request: Request, deps: SandboxDeps): Promise<Response> {
  const account = await session(request, deps);
  if (account instanceof Response) return account;
  const body = await readBody(request);
  if (!body) return invalidRequest('Request body is not valid JSON');
  for (const field of ['repo', 'collection', 'rkey', 'record'] as const)
    if (body[field] === undefined) return invalidRequest(`Input must have the property "${field}"`);
  const { repo, collection, rkey, swapRecord } = body;
  if (!isOwnRepo(account, repo)) return authRequired();
  if (collection !== POST_COLLECTION) return invalidRequest('The sandbox stores app.bsky.feed.post records only');
  if (typeof rkey !== 'string' || !TID_SYNTAX.test(rkey))
    return invalidRequest(`Invalid record key for ${POST_COLLECTION}: Invalid TID`);
  if (swapRecord !== undefined && swapRecord !== null && typeof swapRecord !== 'string')
    return invalidRequest('Input/swapRecord must be a cid string or null');
  const valid = validatePostRecord(body.record);
  if (!valid.ok) return invalidRequest(valid.message);
  const record = body.record as Record<string, unknown>;
  const uri = recordUri(account, rkey);
  return withWriteFaults(deps, request, { platform: 'bluesky', accountId: account.id }, async ({ createAt }) => {
    const result = await putRecordWithProfile(
      deps.store,
      {
        account,
        kind: valid.record.reply ? 'reply' : 'post',
        text: valid.record.text,
        inReplyToId: valid.record.reply?.parent.uri ?? null,
        recordKey: rkey,
        record,
        media: mediaOfRecord(record),
      },
      { createAt, swapRecord, cidOf: recordCid },
    );
    switch (result.status) {
      case 'created':
        return json(200, { uri, cid: recordCid(record), commit: commitJson(), validationStatus: 'valid' });
      case 'unchanged':
        return json(200, { uri, cid: recordCid(record), validationStatus: 'valid' });
      case 'swap_failed':
        return xrpcError(
          400,
          'InvalidSwap',
          `Record was at ${result.current ? recordCid(result.current.record ?? {}) : 'null'}`,
        );
      case 'update_unsupported':
        return invalidRequest('The sandbox does not overwrite records: send swapRecord: null');
    }
  });
}

/** A commit as putRecord and deleteRecord report it (the sandbox keeps no repository history). */
function commitJson() {
  return { cid: recordCid({ commit: randomUUID() }), rev: tidOf(BigInt(Date.now()) * 1000n, 0) };
}

/**
 * Who may read: the session's own repo, or (no token) a signed-in member's workspace accounts. A PDS serves
 * these reads without any session, so an expired one is not refused here: the sandbox only asks who reads.
 */
async function readers(request: Request, deps: SandboxDeps): Promise<SandboxAccount[] | Response> {
  if (bearerToken(request) || !deps.viewerScope) {
    const account = await session(request, deps, 'access', true);
    return account instanceof Response ? account : [account];
  }
  const scope = await deps.viewerScope(request);
  if (!scope) return xrpcError(401, 'AuthMissing', 'Authentication Required');
  return scope.map((s) => s.account).filter((a) => a.platform === 'bluesky');
}

async function getRecord(request: Request, deps: SandboxDeps): Promise<Response> {
  const query = new URL(request.url).searchParams;
  for (const param of ['repo', 'collection', 'rkey'])
    if (!query.get(param)) return invalidRequest(`Params must have the property "${param}"`);
  const [repo, collection, rkey] = [query.get('repo')!, query.get('collection')!, query.get('rkey')!];
  const allowed = await readers(request, deps);
  if (allowed instanceof Response) return allowed;
  // The sandbox's people (sandbox/behaviour/people.ts) are public: anyone reads their records (a reply needs its parent's).
  const account = allowed.find((a) => isOwnRepo(a, repo)) ?? (await publicPerson(deps, repo));
  const uri = `at://${account?.platformUserId ?? repo}/${collection}/${rkey}`;
  if (!account || collection !== POST_COLLECTION) return recordNotFound(uri);
  // A read by key may fail like a listing (503), but has no read lag: the PDS writes the record to its own
  // database in the commit's transaction and getRecord reads that database (as X and Mastodon serve an id at once).
  const read = await withListingFaults(deps, { platform: 'bluesky', accountId: account.id });
  if (read instanceof Response) return read;
  const post = await deps.store.getPostByRecordKey(account.id, rkey);
  if (!post) return recordNotFound(uri);
  return json(200, recordJson(post, account));
}

async function publicPerson(deps: SandboxDeps, repo: string): Promise<SandboxAccount | undefined> {
  const account = await deps.store.getAccount('bluesky', repo);
  return account && isPerson(account) ? account : undefined;
}

async function listRecords(request: Request, deps: SandboxDeps): Promise<Response> {
  const query = new URL(request.url).searchParams;
  for (const param of ['repo', 'collection'])
    if (!query.get(param)) return invalidRequest(`Params must have the property "${param}"`);
  const limit = query.has('limit') ? Number(query.get('limit')) : 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return invalidRequest('limit must be between 1 and 100');
  if (query.get('reverse') === 'true') return invalidRequest('The sandbox lists newest first only (reverse: false)');
  const allowed = await readers(request, deps);
  if (allowed instanceof Response) return allowed;
  const account = allowed.find((a) => isOwnRepo(a, query.get('repo')));
  if (!account) return invalidRequest(`Could not find repo: ${query.get('repo')}`);
  if (query.get('collection') !== POST_COLLECTION) return json(200, { records: [] });
  const read = await withListingFaults(deps, { platform: 'bluesky', accountId: account.id });
  if (read instanceof Response) return read;
  const posts = await deps.store.listPosts(account.id, {
    kinds: ['post', 'reply'],
    byRecordKey: { before: query.get('cursor') ?? undefined },
    createdUpTo: read.createdUpTo,
    limit,
  });
  const records = posts.map((p) => recordJson(p, account));
  return json(200, { records, ...(posts.length > 0 ? { cursor: posts.at(-1)!.recordKey } : {}) });
}

/** A missing record is a no-op answered without a commit (deleteRecord.ts). */
async function deleteRecord(request: Request, deps: SandboxDeps): Promise<Response> {
  const account = await session(request, deps);
  if (account instanceof Response) return account;
  const body = await readBody(request);
  if (!body) return invalidRequest('Request body is not valid JSON');
  if (!isOwnRepo(account, body.repo)) return authRequired();
  if (typeof body.collection !== 'string' || typeof body.rkey !== 'string')
    return invalidRequest('Input must have the properties "collection" and "rkey"');
  const post = body.collection === POST_COLLECTION ? await deps.store.getPostByRecordKey(account.id, body.rkey) : null;
  const deleted = post ? await deps.store.deletePost(account.id, post.id) : null;
  return json(200, deleted?.status === 'deleted' ? { commit: commitJson() } : {});
}

async function resolveHandle(request: Request, deps: SandboxDeps): Promise<Response> {
  const handle = new URL(request.url).searchParams.get('handle');
  if (!handle) return invalidRequest('Params must have the property "handle"');
  const account = await deps.store.getAccountByHandle('bluesky', handle);
  if (account) return json(200, { did: account.platformUserId });
  // Handles under the sandbox's own domain are its to know; others it cannot look up (no DNS here).
  return /\.bsky\.sandbox$/i.test(handle)
    ? xrpcError(400, 'HandleNotFound', 'Unable to resolve handle')
    : invalidRequest('Unable to resolve handle');
}

const MAX_BLOB_BYTES = 5_000_000;

/**
 * Answers the blob reference a PDS would (its CID over the raw bytes), with the account's write faults. Stores
 * nothing: the sandbox keeps no blobs (bluesky-records.ts says what that leaves unchecked).
 */
async function uploadBlob(request: Request, deps: SandboxDeps): Promise<Response> {
  const account = await session(request, deps);
  if (account instanceof Response) return account;
  const bytes = Buffer.from(await request.arrayBuffer());
  if (bytes.length > MAX_BLOB_BYTES) return xrpcError(413, 'PayloadTooLarge', 'request entity too large');
  const mimeType = request.headers.get('content-type') ?? 'application/octet-stream';
  return withWriteFaults(deps, request, { platform: 'bluesky', accountId: account.id }, async () =>
    json(200, { blob: { $type: 'blob', ref: { $link: blobCid(bytes) }, mimeType, size: bytes.length } }),
  );
}

/**
 * getPosts: up to 25 at:// URIs; the views of those it can show (here: the reader's own), the others left out. It is
 * the AppView's read, not the PDS's: it lags behind the repository (the account's read lag — a post written within it
 * is left out, as a post not indexed yet is) and may be unavailable (its listing faults), like the listings.
 */
async function getPosts(request: Request, deps: SandboxDeps): Promise<Response> {
  const uris = new URL(request.url).searchParams.getAll('uris');
  if (uris.length === 0) return invalidRequest('Params must have the property "uris"');
  if (uris.length > 25) return invalidRequest('uris must not have more than 25 elements');
  const allowed = await readers(request, deps);
  if (allowed instanceof Response) return allowed;
  const indexedUpTo = new Map<string, Date>();
  const posts = [];
  for (const uri of uris) {
    const match = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([^/]+)$/.exec(uri);
    const account = match && allowed.find((a) => isOwnRepo(a, match[1]));
    if (!account) continue;
    if (!indexedUpTo.has(account.id)) {
      const read = await withListingFaults(deps, { platform: 'bluesky', accountId: account.id });
      if (read instanceof Response) return read;
      indexedUpTo.set(account.id, read.createdUpTo);
    }
    const post = await deps.store.getPostByRecordKey(account.id, match![2]!);
    if (!post || post.createdAt > indexedUpTo.get(account.id)!) continue;
    const counts = engagementOf(post, 'bluesky');
    const { uri: postUri, cid, value } = recordJson(post, account);
    posts.push({
      uri: postUri,
      cid,
      author: { did: account.platformUserId, handle: bareHandle(account), displayName: account.displayName ?? '' },
      record: value,
      replyCount: counts.replies,
      repostCount: counts.reposts,
      likeCount: counts.likes,
      quoteCount: counts.quotes,
      indexedAt: post.createdAt.toISOString(),
      labels: [],
    });
  }
  return json(200, { posts });
}

/** getProfile: the reader's own profile with its counts (another actor: not found here). */
async function getProfile(request: Request, deps: SandboxDeps): Promise<Response> {
  const actor = new URL(request.url).searchParams.get('actor');
  if (!actor) return invalidRequest('Params must have the property "actor"');
  const allowed = await readers(request, deps);
  if (allowed instanceof Response) return allowed;
  const account = allowed.find((a) => isOwnRepo(a, actor.replace(/^@/, '')));
  if (!account) return invalidRequest('Profile not found');
  return json(200, {
    did: account.platformUserId,
    handle: bareHandle(account),
    displayName: account.displayName ?? '',
    followersCount: followersOf(account, 'bluesky'),
    followsCount: 120,
    postsCount: (await deps.store.countPosts([account.id])).get(account.id) ?? 0,
  });
}

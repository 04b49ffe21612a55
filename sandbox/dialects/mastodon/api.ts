import { withListingFaults, withWriteFaults, json } from '@/sandbox/behaviour/faults';
import { writeWithProfile } from '@/sandbox/behaviour/profiles';
import { postMediaOf, readMultipart, resolveMedia, storeImage } from '@/sandbox/http/media';
import { bearerToken, characterCount, readBody } from '@/sandbox/http/request';
import { accountJson, attachmentJson, instanceJson, statusJson } from './json';
import { isPerson } from '@/sandbox/behaviour/people';
import type { SandboxAccount, SandboxDeps } from '@/sandbox/store/types';

// Mastodon's REST API as the sandbox serves it, including Idempotency-Key on POST /api/v1/statuses
// (what the key does depends on the account's profile: sandbox/behaviour/profiles.ts) and a status's `content` as the
// profile renders it (sandbox/dialects/mastodon/content.ts); `/source` answers the text as sent.

const MAX_CHARACTERS = 500;
const VISIBILITIES = new Set(['public', 'unlisted', 'private', 'direct']);

const error = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { error: message }, headers);
const invalidToken = () =>
  error(401, 'The access token is invalid', { 'www-authenticate': 'Bearer realm="Doorkeeper", error="invalid_token"' });
const authenticationRequired = () => error(401, 'This method requires an authenticated user');
const recordNotFound = () => error(404, 'Record not found');
/** Api::BaseController's answer to Mastodon::RaceConditionError (a lock it could not take in time). */
const temporaryProblem = () => error(503, 'There was a temporary problem serving your request, please try again');

/** `base` is this sandbox's Mastodon root (e.g. http://127.0.0.1:3000/api/sandbox/mastodon), for `url` fields. */
export async function handleMastodon(
  request: Request,
  path: string,
  deps: SandboxDeps,
  base: string,
): Promise<Response> {
  const token = bearerToken(request);
  const viewer = token ? await deps.store.authenticate('mastodon', token) : null;
  if (token && !viewer) return invalidToken();
  const method = request.method;

  if (path === '/api/v1/statuses' && method === 'POST') {
    if (!viewer) return authenticationRequired();
    return createStatus(request, viewer, deps, base);
  }
  if (path === '/api/v2/media' && method === 'POST') {
    if (!viewer) return authenticationRequired();
    return uploadMedia(request, viewer, deps, base);
  }
  const mediaMatch = /^\/api\/v1\/media\/([^/]+)$/.exec(path);
  if (mediaMatch && method === 'GET') {
    if (!viewer) return authenticationRequired();
    return showMedia(decodeURIComponent(mediaMatch[1]!), viewer, deps, base);
  }
  if ((path === '/api/v1/instance' || path === '/api/v2/instance') && method === 'GET')
    return json(200, instanceJson(path.includes('/v2/') ? 'v2' : 'v1'));
  if (path === '/api/v1/accounts/verify_credentials' && method === 'GET') {
    if (!viewer) return authenticationRequired();
    return json(200, {
      ...accountJson(viewer, base),
      source: { privacy: 'public', sensitive: false, language: 'en', note: '' },
    });
  }
  let match = /^\/api\/v1\/accounts\/([^/]+)\/statuses$/.exec(path);
  if (match && method === 'GET') {
    // Real servers in limited-federation / authorized-fetch mode require a token; here every listing does.
    if (!viewer) return authenticationRequired();
    return accountStatuses(request, decodeURIComponent(match[1]!), viewer, deps, base);
  }
  match = /^\/api\/v1\/statuses\/([^/]+)\/source$/.exec(path);
  if (match && method === 'GET') {
    if (!viewer) return authenticationRequired();
    return statusSource(decodeURIComponent(match[1]!), viewer, deps);
  }
  match = /^\/api\/v1\/statuses\/([^/]+)$/.exec(path);
  if (match && method === 'GET') return showStatus(request, decodeURIComponent(match[1]!), viewer, deps, base);
  if (match && method === 'DELETE') {
    if (!viewer) return authenticationRequired();
    return deleteStatus(decodeURIComponent(match[1]!), viewer, deps, base);
  }
  return error(404, 'Not Found');
}

/**
 * GET /api/v1/statuses/:id: the token's own statuses only (404 for anything else, as Mastodon answers a
 * status it will not show). Without a token, a signed-in member of the account's workspace may open it
 * (the app's "View post" links). Not subject to read lag: Mastodon reads a status by id from its database
 * at once; only timelines are built later.
 */
async function showStatus(
  request: Request,
  id: string,
  viewer: SandboxAccount | null,
  deps: SandboxDeps,
  base: string,
): Promise<Response> {
  let readable: SandboxAccount[];
  if (viewer) readable = [viewer];
  else {
    const scope = deps.viewerScope ? await deps.viewerScope(request) : null;
    if (!scope) return authenticationRequired();
    readable = scope.map((s) => s.account);
  }
  const post = await deps.store.getPost(id);
  // The sandbox's people post publicly (sandbox/behaviour/people.ts): the inbox's "View on Mastodon" links open.
  const person = post && post.kind !== 'dm' ? await deps.store.getAccountById(post.accountId) : null;
  const author =
    (post && readable.find((a) => a.id === post.accountId)) ?? (person && isPerson(person) ? person : undefined);
  if (!post || !author) return recordNotFound();
  return json(200, statusJson(post, author, base, await profileOf(deps, author)));
}

/**
 * GET /api/v1/statuses/:id/source (Mastodon ≥ 3.5): the text as it was sent, for editing. Mastodon finds it among
 * the token's own statuses only (`Status.where(account: current_account).find`): anyone else's, or a deleted one, is 404.
 */
async function statusSource(id: string, viewer: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const post = /^\d{1,19}$/.test(id) ? await deps.store.getPost(id) : null;
  if (!post || post.accountId !== viewer.id) return recordNotFound();
  return json(200, { id: post.id, text: post.text, spoiler_text: '' });
}

const profileOf = async (deps: SandboxDeps, account: SandboxAccount) =>
  (await deps.store.getFaults(account.id)).profile;

/** DELETE /api/v1/statuses/:id: the author only; answers the deleted status (with its source text); again → 404. */
async function deleteStatus(id: string, viewer: SandboxAccount, deps: SandboxDeps, base: string): Promise<Response> {
  const result = await deps.store.deletePost(viewer.id, id);
  if (result.status !== 'deleted') return recordNotFound();
  return json(200, { ...statusJson(result.post, viewer, base, await profileOf(deps, viewer)), text: result.post.text });
}

async function createStatus(
  request: Request,
  account: SandboxAccount,
  deps: SandboxDeps,
  base: string,
): Promise<Response> {
  const body = await readBody(request);
  if (!body) return error(400, 'Request body is not valid JSON');
  const text = typeof body.status === 'string' ? body.status : '';
  if (text.trim() === '') return error(422, "Validation failed: Text can't be blank");
  if (characterCount(text) > MAX_CHARACTERS)
    return error(422, `Validation failed: Text character limit of ${MAX_CHARACTERS} exceeded`);
  const visibility = typeof body.visibility === 'string' ? body.visibility : 'public';
  if (!VISIBILITIES.has(visibility)) return error(422, 'Validation failed: Visibility is not included in the list');
  const inReplyToId =
    typeof body.in_reply_to_id === 'string' && body.in_reply_to_id !== '' ? body.in_reply_to_id : null;
  if (inReplyToId && !/^\d{1,19}$/.test(inReplyToId)) return recordNotFound();
  const key = request.headers.get('idempotency-key');
  const mediaIds = Array.isArray(body.media_ids) ? body.media_ids.map(String) : [];
  if (mediaIds.length > 4) return error(422, 'Validation failed: Media attachments must be at most 4');
  const media = await resolveMedia(deps, account, mediaIds);
  if (!media.ok && media.reason === 'processing')
    return error(422, 'Cannot attach files that have not finished processing. Try again in a moment!');
  if (!media.ok) return error(422, `Media with the following IDs was not found: ${media.id}`);
  return withWriteFaults(deps, request, { platform: 'mastodon', accountId: account.id }, async (context) => {
    const result = await writeWithProfile(
      deps.store,
      {
        account,
        kind: visibility === 'direct' ? 'dm' : inReplyToId ? 'reply' : 'post',
        text,
        inReplyToId,
        recipientId: visibility === 'direct' ? (/@([\w.-]+(?:@[\w.-]+)?)/.exec(text)?.[1] ?? null) : null,
        idempotencyKey: key && key.length <= 255 ? key : null,
        media: media.media.map(postMediaOf),
      },
      { ...context, lockWaitMs: deps.lockWaitMs },
    );
    if (result.status === 'busy') return temporaryProblem();
    if (result.status === 'replayed_missing') return recordNotFound();
    if (result.status === 'duplicate') return error(422, 'Validation failed: duplicate');
    // A replay returns the original status, exactly as the first answer would have.
    return json(200, statusJson(result.post, account, base, context.profile));
  });
}

/**
 * Newest first; `limit` (max 40), `max_id`, `since_id`/`min_id`, `exclude_replies`; a Link header for the
 * next page. Only the token's own account is listed here (with its DMs); another account lists nothing.
 */
async function accountStatuses(
  request: Request,
  accountId: string,
  viewer: SandboxAccount,
  deps: SandboxDeps,
  base: string,
): Promise<Response> {
  const query = new URL(request.url).searchParams;
  if (accountId !== viewer.platformUserId) {
    return (await deps.store.getAccount('mastodon', accountId)) ? json(200, []) : recordNotFound();
  }
  const account = viewer;
  const limit = Math.min(Math.max(Number(query.get('limit')) || 20, 1), 40);
  const excludeReplies = query.get('exclude_replies') === 'true';
  const read = await withListingFaults(deps, { platform: 'mastodon', accountId: account.id });
  if (read instanceof Response) return read;
  const posts = await deps.store.listPosts(account.id, {
    kinds: ['post', ...(excludeReplies ? [] : (['reply'] as const)), 'dm'],
    maxId: query.get('max_id') ?? undefined,
    sinceId: query.get('since_id') ?? query.get('min_id') ?? undefined,
    createdUpTo: read.createdUpTo,
    limit,
  });
  const headers: Record<string, string> = {};
  if (posts.length > 0) {
    // On the origin the caller used (`base`): behind `next start` request.url says localhost.
    const here = new URL(request.url);
    const self = new URL(`${base}${here.pathname.slice(here.pathname.indexOf('/api/v1/'))}${here.search}`);
    const link = (param: string, id: string) => {
      const next = new URL(self);
      next.searchParams.delete('max_id');
      next.searchParams.delete('since_id');
      next.searchParams.delete('min_id');
      next.searchParams.set(param, id);
      return next.toString();
    };
    headers.link = `<${link('max_id', posts.at(-1)!.id)}>; rel="next", <${link('min_id', posts[0]!.id)}>; rel="prev"`;
  }
  const profile = await profileOf(deps, account);
  return json(
    200,
    posts.map((p) => statusJson(p, account, base, profile)),
    headers,
  );
}

/**
 * POST /api/v2/media (multipart `file`, `description`): 200 with the attachment when processed at once, 202 with
 * `url: null` while the account's slow-processing fault holds it (as Mastodon answers large files); write faults
 * apply like to any write.
 */
async function uploadMedia(request: Request, account: SandboxAccount, deps: SandboxDeps, base: string) {
  const form = await readMultipart(request, 'file');
  if (!form?.bytes) return error(422, "Validation failed: File can't be blank");
  const description = form.fields.description ?? '';
  if (characterCount(description) > 1500) return error(422, 'Validation failed: Description is too long');
  const bytes = form.bytes;
  const faults = await deps.store.getFaults(account.id);
  return withWriteFaults(deps, request, { platform: 'mastodon', accountId: account.id }, async () => {
    const media = await storeImage(deps, account, bytes, { altText: description, processingMs: faults.processingMs });
    if (!media) return error(422, 'Validation failed: File content type is invalid');
    const processing = media.readyAt.getTime() > Date.now();
    return json(processing ? 202 : 200, attachmentJson(media, base, processing));
  });
}

/** GET /api/v1/media/:id: 206 while processing, 200 once done; the uploader's own only. */
async function showMedia(id: string, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  const media = /^\d{1,19}$/.test(id) ? await deps.store.getMedia(id) : null;
  if (!media || media.accountId !== viewer.id) return recordNotFound();
  const processing = media.readyAt.getTime() > Date.now();
  return json(processing ? 206 : 200, attachmentJson(media, base, processing));
}

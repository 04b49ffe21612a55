import { withListingFaults, withWriteFaults, json } from '@/sandbox/behaviour/faults';
import { writeWithProfile } from '@/sandbox/behaviour/profiles';
import { postMediaOf, readMultipart, resolveMedia, storeImage } from '@/sandbox/http/media';
import { bearerToken, characterCount, readBody } from '@/sandbox/http/request';
import { isPerson } from '@/sandbox/behaviour/people';
import type { SandboxAccount, SandboxDeps, SandboxPost } from '@/sandbox/store/types';
import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';
import { shownText, weightedLength } from './text';

// X API v2 as the sandbox serves it: the request and response shapes of the real endpoints. Posts read back as X
// shows them (sandbox/dialects/x/text.ts): links as t.co, a long post truncated.

const MAX_CHARACTERS = 280;
/** X Premium: a post may hold up to 25,000 characters (a "note tweet"). */
const PREMIUM_MAX_CHARACTERS = 25_000;

export const unauthorized = () =>
  json(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
export const invalidRequest = (message: string) =>
  json(400, {
    errors: [{ message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.twitter.com/2/problems/invalid-request',
  });
/** One missing resource as X lists it in `errors`. */
const notFoundError = (resourceType: 'tweet' | 'user', id: string, parameter: 'id' | 'ids') => ({
  value: id,
  detail: `Could not find ${resourceType} with ${parameter}: [${id}].`,
  title: 'Not Found Error',
  resource_type: resourceType,
  parameter,
  resource_id: id,
  type: 'https://api.twitter.com/2/problems/resource-not-found',
});
/** X answers a lookup of something missing with 200 and an `errors` array. */
const notFound = (resourceType: 'tweet' | 'user', id: string) =>
  json(200, { errors: [notFoundError(resourceType, id, 'id')] });
const duplicateContent = () =>
  json(403, {
    detail: 'You are not allowed to create a Tweet with duplicate content.',
    type: 'about:blank',
    title: 'Forbidden',
    status: 403,
  });
const notYours = () =>
  json(403, {
    detail: 'You are not authorized to delete this Tweet.',
    type: 'about:blank',
    title: 'Forbidden',
    status: 403,
  });
const routeNotFound = () =>
  json(404, { title: 'Not Found Error', type: 'about:blank', status: 404, detail: 'Sorry, that page does not exist' });

export async function handleX(request: Request, path: string, deps: SandboxDeps): Promise<Response> {
  const method = request.method;
  const token = bearerToken(request);
  const account = token ? await deps.store.authenticate('x', token) : null;

  if (path === '/2/tweets' && method === 'POST') {
    if (!account) return unauthorized();
    return createTweet(request, account, deps);
  }
  if (path === '/2/media/upload' && method === 'POST') {
    if (!account) return unauthorized();
    return uploadMedia(request, account, deps);
  }
  if (path === '/2/media/metadata' && method === 'POST') {
    if (!account) return unauthorized();
    return mediaMetadata(request, account, deps);
  }
  let match = /^\/2\/dm_conversations\/with\/([^/]+)\/messages$/.exec(path);
  if (match && method === 'POST') {
    if (!account) return unauthorized();
    return sendDirectMessage(request, account, decodeURIComponent(match[1]!), deps);
  }
  if (path === '/2/users/me' && method === 'GET') {
    if (!account) return unauthorized();
    const fields = new Set((new URL(request.url).searchParams.get('user.fields') ?? '').split(',').filter(Boolean));
    return json(200, { data: userJson(account, fields) });
  }
  if (path === '/2/tweets' && method === 'GET') {
    if (!account) return unauthorized();
    return lookupTweets(request, account, deps);
  }
  match = /^\/2\/users\/([^/]+)\/tweets$/.exec(path);
  if (match && method === 'GET') {
    if (!account) return unauthorized();
    return userTweets(request, account, decodeURIComponent(match[1]!), deps);
  }
  match = /^\/2\/tweets\/([^/]+)$/.exec(path);
  if (match && method === 'GET') return getTweet(request, account, decodeURIComponent(match[1]!), deps);
  if (match && method === 'DELETE') {
    if (!account) return unauthorized();
    return deleteTweet(account, decodeURIComponent(match[1]!), deps);
  }
  return routeNotFound();
}

/**
 * GET /2/tweets/:id needs a token (X has no anonymous reads) and shows only the token's own posts here.
 * Without a bearer token, a signed-in member of the account's workspace may open it (the app's "View post"
 * links). A lookup by id is not subject to read lag: X serves a new Tweet by id at once, while the user
 * timeline (a fan-out index) may list it later.
 */
async function getTweet(
  request: Request,
  account: SandboxAccount | null,
  id: string,
  deps: SandboxDeps,
): Promise<Response> {
  let readable: (post: SandboxPost) => boolean;
  if (account) readable = (post) => post.accountId === account.id;
  else if (!bearerToken(request) && deps.viewerScope) {
    const scope = await deps.viewerScope(request);
    if (!scope) return unauthorized();
    const ids = new Set(scope.map((s) => s.account.id));
    readable = (post) => ids.has(post.accountId);
  } else return unauthorized();
  const post = await deps.store.getPost(id);
  // The sandbox's people post publicly (sandbox/behaviour/people.ts): the inbox's "View on X" links open.
  const author = post && !readable(post) ? await deps.store.getAccountById(post.accountId) : null;
  if (!post || post.kind === 'dm' || !(readable(post) || (author && isPerson(author)))) return notFound('tweet', id);
  const fields = tweetFields(request);
  for (const always of ['created_at', 'referenced_tweets']) fields.add(always);
  return json(200, { data: tweetJson(post, fields) });
}

/** GET /2/tweets?ids=…: up to 100 ids; one missing (deleted, or not the token's here) is an entry in `errors`. */
async function lookupTweets(request: Request, account: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const ids = (new URL(request.url).searchParams.get('ids') ?? '').split(',').filter(Boolean);
  if (ids.length === 0 || ids.length > 100)
    return invalidRequest('The `ids` query parameter value must hold 1 to 100 comma-separated ids.');
  if (ids.some((id) => !/^\d{1,19}$/.test(id)))
    return invalidRequest('The `ids` query parameter value is not a comma-separated list of tweet ids.');
  const fields = tweetFields(request);
  const data = [];
  const errors = [];
  for (const id of ids) {
    const post = await deps.store.getPost(id);
    if (post && post.kind !== 'dm' && post.accountId === account.id) data.push(tweetJson(post, fields));
    else errors.push(notFoundError('tweet', id, 'ids'));
  }
  return json(200, { ...(data.length > 0 ? { data } : {}), ...(errors.length > 0 ? { errors } : {}) });
}

/**
 * DELETE /2/tweets/:id (author only). The docs promise `deleted: true` for a successful delete; the field
 * says whether *this* request deleted it, so a second delete of the same Tweet answers `deleted: false`.
 */
async function deleteTweet(account: SandboxAccount, id: string, deps: SandboxDeps): Promise<Response> {
  const result = await deps.store.deletePost(account.id, id);
  if (result.status === 'deleted') return json(200, { data: { deleted: true } });
  if (result.status === 'already_deleted') return json(200, { data: { deleted: false } });
  const other = await deps.store.getPost(id);
  return other ? notYours() : json(200, { data: { deleted: false } });
}

async function createTweet(request: Request, account: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const body = await readBody(request);
  if (!body) return invalidRequest('Request body is not valid JSON.');
  const text = body.text;
  if (typeof text !== 'string' || text.trim() === '') return invalidRequest('$.text must be a non-empty string.');
  // Counted as X counts (URLs 23, emoji and CJK 2): never more forgiving, nor stricter, than the real limit.
  const premium = (await deps.store.getFaults(account.id)).profile === 'x-premium';
  const limit = premium ? PREMIUM_MAX_CHARACTERS : MAX_CHARACTERS;
  if (weightedLength(text) > limit) return invalidRequest(`$.text must be at most ${limit} characters.`);
  const reply = body.reply as { in_reply_to_tweet_id?: unknown } | undefined;
  const inReplyTo = reply?.in_reply_to_tweet_id;
  if (reply !== undefined && (typeof inReplyTo !== 'string' || !/^\d{1,19}$/.test(inReplyTo))) {
    return invalidRequest('$.reply.in_reply_to_tweet_id must be a tweet id.');
  }
  const mediaIds = (body.media as { media_ids?: unknown } | undefined)?.media_ids;
  if (body.media !== undefined && (!Array.isArray(mediaIds) || mediaIds.length < 1 || mediaIds.length > 4))
    return invalidRequest('$.media.media_ids must hold 1 to 4 media ids.');
  const media = await resolveMedia(deps, account, Array.isArray(mediaIds) ? mediaIds.map(String) : []);
  if (!media.ok) return invalidRequest('Your media IDs are invalid.');
  return withWriteFaults(deps, request, { platform: 'x', accountId: account.id }, async (context) => {
    const result = await writeWithProfile(
      deps.store,
      {
        account,
        kind: inReplyTo ? 'reply' : 'post',
        text,
        inReplyToId: (inReplyTo as string | undefined) ?? null,
        media: media.media.map(postMediaOf),
      },
      context,
    );
    if (result.status !== 'created' && result.status !== 'replayed') return duplicateContent();
    const { text: shown } = shownText(result.post.id, result.post.text, new Set());
    return json(201, { data: { id: result.post.id, text: shown, edit_history_tweet_ids: [result.post.id] } });
  });
}

/**
 * POST /2/media/upload (one request, multipart: `media`, `media_category`, `media_type`): the image is kept for
 * the account and answered `{ data: { id, media_key, size, expires_after_secs } }`. Write faults apply: an upload
 * can time out or fail like any write (the client then never posts).
 */
async function uploadMedia(request: Request, account: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const form = await readMultipart(request, 'media');
  if (!form?.bytes) return invalidRequest('The `media` field is required (multipart/form-data).');
  const category = form.fields.media_category;
  if (category !== 'tweet_image' && category !== 'dm_image')
    return invalidRequest('$.media_category must be one of [tweet_image, dm_image, subtitles].');
  const bytes = form.bytes;
  return withWriteFaults(deps, request, { platform: 'x', accountId: account.id }, async () => {
    const media = await storeImage(deps, account, bytes);
    // The one-request endpoint's media types: JPEG, PNG, WebP (a GIF goes through the chunked upload, tweet_gif).
    if (!media || media.type === 'image/gif') return invalidRequest('The media is not a supported image.');
    return json(200, {
      data: { id: media.id, media_key: `3_${media.id}`, size: media.size, expires_after_secs: 86_400 },
    });
  });
}

/** POST /2/media/metadata `{ id, metadata: { alt_text: { text } } }` (at most 1000 characters). */
async function mediaMetadata(request: Request, account: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const body = await readBody(request);
  const id = typeof body?.id === 'string' ? body.id : '';
  const altText = (body?.metadata as { alt_text?: { text?: unknown } } | undefined)?.alt_text?.text;
  if (typeof altText !== 'string' || characterCount(altText) > 1000)
    return invalidRequest('$.metadata.alt_text.text must be a string of at most 1000 characters.');
  const media = /^\d{1,19}$/.test(id) ? await deps.store.getMedia(id) : null;
  if (!media || media.accountId !== account.id) return invalidRequest('$.id is not a media id of this user.');
  await deps.store.updateMedia(id, { altText });
  return json(200, { data: { id, associated_metadata: { alt_text: { text: altText } } } });
}

async function sendDirectMessage(
  request: Request,
  account: SandboxAccount,
  participantId: string,
  deps: SandboxDeps,
): Promise<Response> {
  if (!/^\d{1,19}$/.test(participantId)) return invalidRequest('participant_id must be a user id.');
  const body = await readBody(request);
  if (!body) return invalidRequest('Request body is not valid JSON.');
  if (typeof body.text !== 'string' || body.text.trim() === '')
    return invalidRequest('$.text must be a non-empty string.');
  const text = body.text;
  return withWriteFaults(deps, request, { platform: 'x', accountId: account.id }, async (context) => {
    const result = await writeWithProfile(
      deps.store,
      { account, kind: 'dm', text, recipientId: participantId },
      context,
    );
    if (result.status !== 'created' && result.status !== 'replayed') return duplicateContent();
    const pair = [account.platformUserId, participantId].sort();
    return json(201, { data: { dm_conversation_id: pair.join('-'), dm_event_id: result.post.id } });
  });
}

/**
 * GET /2/users/:id/tweets: newest first, start_time/end_time, max_results 5–100, pagination_token.
 * Only the token's own timeline is readable here; another user's id lists nothing.
 */
async function userTweets(
  request: Request,
  viewer: SandboxAccount,
  userId: string,
  deps: SandboxDeps,
): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const maxResults = query.has('max_results') ? Number(query.get('max_results')) : 10;
  if (!Number.isInteger(maxResults) || maxResults < 5 || maxResults > 100)
    return invalidRequest('The `max_results` query parameter value must be between 5 and 100.');
  const startTime = parseTime(query.get('start_time'));
  const endTime = parseTime(query.get('end_time'));
  if (startTime === 'invalid' || endTime === 'invalid')
    return invalidRequest('start_time and end_time must be RFC 3339 timestamps (YYYY-MM-DDTHH:mm:ssZ).');
  let maxId = query.get('until_id') ?? undefined;
  const token = query.get('pagination_token');
  if (token) {
    const decoded = Buffer.from(token, 'base64url').toString();
    if (!/^\d+$/.test(decoded)) return invalidRequest('The `pagination_token` query parameter value is invalid.');
    maxId = decoded;
  }
  if (userId !== viewer.platformUserId) {
    return (await deps.store.getAccount('x', userId))
      ? json(200, { meta: { result_count: 0 } })
      : notFound('user', userId);
  }
  const exclude = new Set((query.get('exclude') ?? '').split(',').filter(Boolean));
  const fields = tweetFields(request);
  const read = await withListingFaults(deps, { platform: 'x', accountId: viewer.id });
  if (read instanceof Response) return read;
  const rows = await deps.store.listPosts(viewer.id, {
    kinds: exclude.has('replies') ? ['post'] : ['post', 'reply'],
    startTime: startTime ?? undefined,
    endTime: endTime ?? undefined,
    maxId,
    sinceId: query.get('since_id') ?? undefined,
    createdUpTo: read.createdUpTo,
    limit: maxResults + 1,
  });
  const page = rows.slice(0, maxResults);
  if (page.length === 0) return json(200, { meta: { result_count: 0 } });
  const meta: Record<string, unknown> = {
    result_count: page.length,
    newest_id: page[0]!.id,
    oldest_id: page.at(-1)!.id,
  };
  if (rows.length > maxResults) meta.next_token = Buffer.from(page.at(-1)!.id).toString('base64url');
  return json(200, { data: page.map((p) => tweetJson(p, fields)), meta });
}

function parseTime(value: string | null): Date | null | 'invalid' {
  if (value === null) return null;
  const date = new Date(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(date.getTime()) ? date : 'invalid';
}

const tweetFields = (request: Request) =>
  new Set((new URL(request.url).searchParams.get('tweet.fields') ?? '').split(',').filter(Boolean));

function tweetJson(post: SandboxPost, fields: Set<string>) {
  return {
    id: post.id,
    ...shownText(post.id, post.text, fields),
    edit_history_tweet_ids: [post.id],
    ...(fields.has('created_at') ? { created_at: post.createdAt.toISOString() } : {}),
    ...(fields.has('referenced_tweets') && post.inReplyToId
      ? { referenced_tweets: [{ type: 'replied_to', id: post.inReplyToId }] }
      : {}),
    ...(fields.has('public_metrics') ? { public_metrics: publicMetrics(post) } : {}),
  };
}

/** A Tweet's public_metrics, as X gives them to anyone (impressions and bookmarks included since 2023). */
function publicMetrics(post: SandboxPost) {
  const e = engagementOf(post, 'x');
  return {
    retweet_count: e.reposts,
    reply_count: e.replies,
    like_count: e.likes,
    quote_count: e.quotes,
    bookmark_count: e.saves,
    impression_count: e.views,
  };
}

function userJson(account: SandboxAccount, fields: Set<string> = new Set()) {
  const username = account.handle.replace(/^@/, '').split('@')[0]!;
  return {
    id: account.platformUserId,
    name: account.displayName ?? username,
    username,
    ...(fields.has('public_metrics')
      ? {
          public_metrics: {
            followers_count: followersOf(account, 'x'),
            following_count: 180,
            tweet_count: 0,
            listed_count: 3,
            like_count: 0,
            media_count: 0,
          },
        }
      : {}),
  };
}

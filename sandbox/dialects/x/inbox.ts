import { json, withListingFaults } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxAccount, SandboxDeps, SandboxPost } from '@/sandbox/store/types';
import { invalidRequest, unauthorized } from './api';
import { shownText } from './text';

// What people say to an X account, as X API v2 serves it (docs.x.com: GET /2/users/:id/mentions, GET /2/dm_events):
// the mentions timeline (replies to the account are in it: they mention it) newest first with since_id and
// pagination_token, and the account's DM events, both its own and those sent to it, newest first.

/** The X inbox routes; null for any other path (the dialect's own handler takes it). */
export async function handleXInbox(request: Request, path: string, deps: SandboxDeps): Promise<Response | null> {
  if (request.method !== 'GET') return null;
  const mentions = /^\/2\/users\/([^/]+)\/mentions$/.exec(path);
  if (!mentions && path !== '/2/dm_events') return null;
  const token = bearerToken(request);
  const account = token ? await deps.store.authenticate('x', token) : null;
  if (!account) return unauthorized();
  return mentions
    ? mentionsTimeline(request, account, decodeURIComponent(mentions[1]!), deps)
    : dmEvents(request, account, deps);
}

function pageToken(query: URLSearchParams): string | undefined | 'invalid' {
  const token = query.get('pagination_token');
  if (!token) return undefined;
  const decoded = Buffer.from(token, 'base64url').toString();
  return /^\d{1,19}$/.test(decoded) ? decoded : 'invalid';
}

const fieldsOf = (query: URLSearchParams, name: string) => new Set((query.get(name) ?? '').split(',').filter(Boolean));

/** GET /2/users/:id/mentions: the token's own user only; max_results 5–100 (default 10). */
async function mentionsTimeline(request: Request, viewer: SandboxAccount, userId: string, deps: SandboxDeps) {
  const query = new URL(request.url).searchParams;
  const maxResults = query.has('max_results') ? Number(query.get('max_results')) : 10;
  if (!Number.isInteger(maxResults) || maxResults < 5 || maxResults > 100)
    return invalidRequest('The `max_results` query parameter value must be between 5 and 100.');
  const token = pageToken(query);
  if (token === 'invalid') return invalidRequest('The `pagination_token` query parameter value is invalid.');
  const sinceId = query.get('since_id') ?? undefined;
  if (sinceId !== undefined && !/^\d{1,19}$/.test(sinceId))
    return invalidRequest('The `since_id` query parameter value is not a valid post id.');
  const startTime = query.get('start_time');
  if (startTime !== null && (!/^\d{4}-\d{2}-\d{2}T/.test(startTime) || Number.isNaN(Date.parse(startTime))))
    return invalidRequest('start_time must be an RFC 3339 timestamp (YYYY-MM-DDTHH:mm:ssZ).');
  if (userId !== viewer.platformUserId) return json(200, { meta: { result_count: 0 } });
  await receiveInbound(deps.store, viewer);
  const read = await withListingFaults(deps, { platform: 'x', accountId: viewer.id });
  if (read instanceof Response) return read;
  const rows = await deps.store.listInbound(viewer.id, {
    kinds: ['post', 'reply'],
    sinceId,
    maxId: token ?? query.get('until_id') ?? undefined,
    startTime: startTime ? new Date(startTime) : undefined,
    createdUpTo: read.createdUpTo,
    limit: maxResults + 1,
  });
  const page = rows.slice(0, maxResults);
  if (page.length === 0) return json(200, { meta: { result_count: 0 } });
  const fields = fieldsOf(query, 'tweet.fields');
  const authors = await authorsOf(deps, page, query);
  const meta: Record<string, unknown> = {
    result_count: page.length,
    newest_id: page[0]!.id,
    oldest_id: page.at(-1)!.id,
  };
  if (rows.length > maxResults) meta.next_token = Buffer.from(page.at(-1)!.id).toString('base64url');
  return json(200, {
    data: page.map((p) => ({
      id: p.id,
      ...shownText(p.id, p.text, fields),
      edit_history_tweet_ids: [p.id],
      ...(fields.has('created_at') ? { created_at: p.createdAt.toISOString() } : {}),
      ...(fields.has('author_id') ? { author_id: authors.idOf(p) } : {}),
      ...(fields.has('conversation_id') ? { conversation_id: p.inReplyToId ?? p.id } : {}),
      ...(fields.has('in_reply_to_user_id') && p.inReplyToId ? { in_reply_to_user_id: viewer.platformUserId } : {}),
      ...(fields.has('referenced_tweets') && p.inReplyToId
        ? { referenced_tweets: [{ type: 'replied_to', id: p.inReplyToId }] }
        : {}),
    })),
    ...authors.includes,
    meta,
  });
}

/**
 * GET /2/dm_events: the account's DM events, sent and received, newest first; max_results 1–100 (default 100),
 * pagination_token. Each names its conversation (`<smaller id>-<larger id>` for one-to-one).
 */
async function dmEvents(request: Request, viewer: SandboxAccount, deps: SandboxDeps) {
  const query = new URL(request.url).searchParams;
  const maxResults = query.has('max_results') ? Number(query.get('max_results')) : 100;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 100)
    return invalidRequest('The `max_results` query parameter value must be between 1 and 100.');
  const types = query.get('event_types');
  if (
    types !== null &&
    !types.split(',').every((t) => ['MessageCreate', 'ParticipantsJoin', 'ParticipantsLeave'].includes(t))
  )
    return invalidRequest('The `event_types` query parameter value is invalid.');
  const token = pageToken(query);
  if (token === 'invalid') return invalidRequest('The `pagination_token` query parameter value is invalid.');
  await receiveInbound(deps.store, viewer);
  const read = await withListingFaults(deps, { platform: 'x', accountId: viewer.id });
  if (read instanceof Response) return read;
  const listing = { kinds: ['dm' as const], maxId: token, createdUpTo: read.createdUpTo, limit: maxResults + 1 };
  const [received, sent] = await Promise.all([
    deps.store.listInbound(viewer.id, listing),
    deps.store.listPosts(viewer.id, listing),
  ]);
  const rows = [...received, ...sent].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1)).slice(0, maxResults + 1);
  const page = rows.slice(0, maxResults);
  const fields = fieldsOf(query, 'dm_event.fields');
  const authors = await authorsOf(deps, page, query, 'sender_id');
  const body: Record<string, unknown> = {
    data: page.map((p) => {
      const sender = authors.idOf(p);
      const other = p.accountId === viewer.id ? p.recipientId! : sender;
      const pair = [viewer.platformUserId, other].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
      return {
        id: p.id,
        event_type: 'MessageCreate',
        text: p.text,
        ...(fields.has('sender_id') ? { sender_id: sender } : {}),
        ...(fields.has('created_at') ? { created_at: p.createdAt.toISOString() } : {}),
        ...(fields.has('dm_conversation_id') ? { dm_conversation_id: pair.join('-') } : {}),
        ...(fields.has('participant_ids') ? { participant_ids: pair } : {}),
      };
    }),
    ...authors.includes,
    meta: {
      result_count: page.length,
      ...(rows.length > maxResults ? { next_token: Buffer.from(page.at(-1)!.id).toString('base64url') } : {}),
    },
  };
  return json(200, body);
}

/** The authors of a page: their ids, and `includes.users` when `expansions` asks for them. */
async function authorsOf(deps: SandboxDeps, page: SandboxPost[], query: URLSearchParams, expansion = 'author_id') {
  const byId = new Map<string, SandboxAccount>();
  for (const p of page) {
    if (byId.has(p.accountId)) continue;
    const author = await deps.store.getAccountById(p.accountId);
    if (author) byId.set(p.accountId, author);
  }
  const userFields = fieldsOf(query, 'user.fields');
  const users = [...byId.values()].map((a) => {
    const username = a.handle.replace(/^@/, '').split('@')[0]!;
    return {
      id: a.platformUserId,
      name: a.displayName ?? username,
      username,
      ...(userFields.has('profile_image_url') ? { profile_image_url: '' } : {}),
    };
  });
  const expanded = fieldsOf(query, 'expansions').has(expansion) && users.length > 0;
  return {
    idOf: (p: SandboxPost) => byId.get(p.accountId)?.platformUserId ?? '',
    includes: expanded ? { includes: { users } } : {},
  };
}

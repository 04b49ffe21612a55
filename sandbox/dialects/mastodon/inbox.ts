import { json, withListingFaults } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxAccount, SandboxDeps } from '@/sandbox/store/types';
import { accountJson, statusJson } from './json';

// What people say to a Mastodon account, as Mastodon serves it (docs.joinmastodon.org/methods/notifications):
// GET /api/v1/notifications, newest first, `types[]`, `limit` (max 80: Mastodon 4's), `max_id`, `since_id` and `min_id`
// (the page just after it), with a Link header. A reply, a mention and a direct message to the account are each a
// `mention` notification of the status that mentions it. Notifications have their own ids, apart from the statuses'.

const MAX_LIMIT = 80;
const TYPES = new Set([
  'mention',
  'status',
  'reblog',
  'follow',
  'follow_request',
  'favourite',
  'poll',
  'update',
  'admin.sign_up',
  'admin.report',
  'severed_relationships',
  'moderation_warning',
  'quote',
  'quoted_update',
]);

/** A notification's id from its status's: distinct, in the same order (min_id and max_id compare as on Mastodon). */
const notificationId = (statusId: string) => String(BigInt(statusId) - 1n);
const statusIdOf = (notification: string | null) =>
  notification && /^\d{1,19}$/.test(notification) ? String(BigInt(notification) + 1n) : undefined;

export async function handleMastodonInbox(
  request: Request,
  path: string,
  deps: SandboxDeps,
  base: string,
): Promise<Response | null> {
  if (path !== '/api/v1/notifications' || request.method !== 'GET') return null;
  const token = bearerToken(request);
  const viewer = token ? await deps.store.authenticate('mastodon', token) : null;
  if (!viewer) return json(401, { error: 'The access token is invalid' });
  return notifications(request, viewer, deps, base);
}

async function notifications(request: Request, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  const url = new URL(request.url);
  const query = url.searchParams;
  const limit = Math.min(Math.max(Number(query.get('limit')) || 40, 1), MAX_LIMIT);
  const types = query.getAll('types[]');
  if (types.some((t) => !TYPES.has(t))) return json(422, { error: 'Validation failed: types is invalid' });
  const wanted = types.length === 0 || types.includes('mention');
  await receiveInbound(deps.store, viewer);
  const read = await withListingFaults(deps, { platform: 'mastodon', accountId: viewer.id });
  if (read instanceof Response) return read;
  const minId = statusIdOf(query.get('min_id'));
  const listing = {
    kinds: ['post' as const, 'reply' as const, 'dm' as const],
    maxId: statusIdOf(query.get('max_id')),
    sinceId: minId ?? statusIdOf(query.get('since_id')),
    createdUpTo: read.createdUpTo,
  };
  // min_id: the page just after it (the oldest newer ones), still shown newest first.
  const rows = !wanted
    ? []
    : minId
      ? (await deps.store.listInbound(viewer.id, { ...listing, limit: 10_000 })).slice(-limit)
      : await deps.store.listInbound(viewer.id, { ...listing, limit });
  const profile = (await deps.store.getFaults(viewer.id)).profile;
  const body = [];
  for (const status of rows) {
    const author = (await deps.store.getAccountById(status.accountId))!;
    body.push({
      id: notificationId(status.id),
      type: 'mention',
      group_key: `ungrouped-${notificationId(status.id)}`,
      created_at: status.createdAt.toISOString(),
      account: accountJson(author, base),
      status: statusJson(status, author, base, profile),
    });
  }
  const headers: Record<string, string> = {};
  if (body.length > 0) {
    const self = new URL(`${base}/api/v1/notifications${url.search}`);
    const link = (param: string, id: string) => {
      const next = new URL(self);
      for (const p of ['max_id', 'since_id', 'min_id']) next.searchParams.delete(p);
      next.searchParams.set(param, id);
      return next.toString();
    };
    headers.link = `<${link('max_id', body.at(-1)!.id)}>; rel="next", <${link('min_id', body[0]!.id)}>; rel="prev"`;
  }
  return json(200, body, headers);
}

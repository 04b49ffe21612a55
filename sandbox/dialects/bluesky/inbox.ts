import { json, withListingFaults } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxDeps } from '@/sandbox/store/types';
import { bareHandle, recordJson } from './records';
import { checkSandboxSession } from './session';

// What people say to a Bluesky account, as the AppView serves it through the PDS (app.bsky.notification.listNotifications,
// lexicon in @atproto/pds): newest first, `reasons` to include, `limit` 1–100 (default 50), `cursor` paging back.
// A reply to the account's post is `reply` (reasonSubject: the post replied to), a mention `mention`.

const NSID = '/xrpc/app.bsky.notification.listNotifications';
const xrpcError = (status: number, error: string, message: string) => json(status, { error, message });

export async function handleBlueskyInbox(request: Request, path: string, deps: SandboxDeps): Promise<Response | null> {
  if (path !== NSID) return null;
  if (request.method !== 'GET')
    return xrpcError(400, 'InvalidRequest', `Incorrect HTTP method (${request.method}) expected GET`);
  const session = await checkSandboxSession(deps.store, bearerToken(request), 'access');
  if (!session.ok) return xrpcError(session.status, session.error, session.message);
  const viewer = session.account;
  const query = new URL(request.url).searchParams;
  const limit = query.has('limit') ? Number(query.get('limit')) : 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    return xrpcError(400, 'InvalidRequest', 'limit must be between 1 and 100');
  const cursor = query.get('cursor');
  const before = cursor ? Buffer.from(cursor, 'base64url').toString() : undefined;
  if (before !== undefined && !/^\d{1,19}$/.test(before)) return xrpcError(400, 'InvalidRequest', 'Malformed cursor');
  const reasons = new Set(query.getAll('reasons'));
  await receiveInbound(deps.store, viewer);
  const read = await withListingFaults(deps, { platform: 'bluesky', accountId: viewer.id });
  if (read instanceof Response) return read;
  const wanted = reasons.size === 0 || reasons.has('reply') || reasons.has('mention');
  const rows = wanted
    ? await deps.store.listInbound(viewer.id, {
        kinds: ['post', 'reply'],
        maxId: before,
        createdUpTo: read.createdUpTo,
        limit: limit + 1,
      })
    : [];
  const notifications = [];
  for (const post of rows.slice(0, limit)) {
    const reason = post.inReplyToId ? 'reply' : 'mention';
    if (reasons.size > 0 && !reasons.has(reason)) continue;
    const author = (await deps.store.getAccountById(post.accountId))!;
    const { uri, cid, value } = recordJson(post, author);
    notifications.push({
      uri,
      cid,
      author: { did: author.platformUserId, handle: bareHandle(author), displayName: author.displayName ?? '' },
      reason,
      ...(post.inReplyToId ? { reasonSubject: post.inReplyToId } : {}),
      record: value,
      isRead: false,
      indexedAt: post.createdAt.toISOString(),
      labels: [],
    });
  }
  const page = rows.slice(0, limit);
  return json(200, {
    notifications,
    ...(rows.length > limit ? { cursor: Buffer.from(page.at(-1)!.id).toString('base64url') } : {}),
  });
}

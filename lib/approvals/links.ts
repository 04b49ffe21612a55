import type { Executor } from '@/db/client';
import { countAddressRequest, countLinkRequest, pruneAddressWindows } from '@/db/queries/rate-windows';
import { getApprovalLink, insertApprovalLink, listPendingApprovals } from '@/db/queries/approvals';
import type { ApprovalLink } from '@/db/schema';
import { linkSecretMatches, newLinkSecret, parseLinkToken } from '@/lib/crypto/link-token';

/** How long a client link works; an admin can revoke it sooner. */
export const APPROVAL_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Requests per minute from one client address on a link (page views and decisions), counted first; and a far higher
 * ceiling for the whole link, so one holder cannot lock the other reviewers out.
 */
export const APPROVAL_ADDRESS_RATE_PER_MINUTE = 60;
export const APPROVAL_LINK_RATE_PER_MINUTE = 600;

export async function createApprovalLink(
  db: Executor,
  params: { workspaceId: string; postIds: string[]; label: string; userId: string; now?: Date },
) {
  const { secret, secretHash } = newLinkSecret();
  const now = params.now ?? new Date();
  const expiresAt = new Date(now.getTime() + APPROVAL_LINK_TTL_MS);
  const { id } = await insertApprovalLink(db, {
    workspaceId: params.workspaceId,
    secretHash,
    postIds: params.postIds,
    label: params.label,
    createdByUserId: params.userId,
    expiresAt,
  });
  return { id, token: `${id}.${secret}`, expiresAt };
}

/** "Everything pending this week": the posts awaiting a decision that are due within the next 7 days. */
export async function createWeekApprovalLink(db: Executor, params: { workspaceId: string; userId: string }) {
  const until = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
  const pending = await listPendingApprovals(db, { workspaceId: params.workspaceId, before: until });
  if (pending.length === 0) return null;
  return createApprovalLink(db, {
    ...params,
    postIds: pending.map((p) => p.id),
    label: `Everything pending until ${until.toISOString().slice(0, 10)}`,
  });
}

export type LinkCheck =
  | { ok: true; link: ApprovalLink }
  /** 404 unknown or altered link (one answer: a guess learns nothing); 410 expired or revoked; 429 too many. */
  | { ok: false; status: 404 | 410 | 429; title: string; detail: string };

const NOT_FOUND = {
  ok: false,
  status: 404,
  title: 'Link not found',
  detail: 'This approval link does not exist. Check that you copied all of it, or ask for a new one.',
} as const;

/**
 * What a client's token names, without counting the request (the proxy uses it to answer the page with its real
 * status): an unknown id and a wrong secret are the same "not found", so the answer is no oracle for link ids.
 */
export async function inspectApprovalLink(db: Executor, token: string, now = new Date()): Promise<LinkCheck> {
  const parsed = parseLinkToken(token);
  if (!parsed) return NOT_FOUND;
  const link = await getApprovalLink(db, { id: parsed.id });
  if (!link || !linkSecretMatches(parsed.secret, link.secretHash)) return NOT_FOUND;
  if (link.revokedAt)
    return {
      ok: false,
      status: 410,
      title: 'Link revoked',
      detail: 'This approval link was revoked. Ask for a new one.',
    };
  if (link.expiresAt.getTime() <= now.getTime())
    return {
      ok: false,
      status: 410,
      title: 'Link expired',
      detail: 'This approval link has expired. Ask for a new one.',
    };
  return { ok: true, link };
}

/**
 * Resolves a client's token (no session: the token alone decides); each request counts against the address's window
 * on the link first, then the link's (`address` null: the link's only).
 */
export async function checkApprovalLink(
  db: Executor,
  token: string,
  address: string | null,
  now = new Date(),
): Promise<LinkCheck> {
  const check = await inspectApprovalLink(db, token, now);
  if (!check.ok) return check;
  const tooMany: LinkCheck = {
    ok: false,
    status: 429,
    title: 'Too many requests',
    detail: 'Please wait a minute and try again.',
  };
  const linkId = check.link.id;
  if (address !== null) {
    const limit = APPROVAL_ADDRESS_RATE_PER_MINUTE;
    const within = await countAddressRequest(db, { kind: 'approval', linkId, address, limit });
    await pruneAddressWindows(db, { kind: 'approval', linkId });
    if (!within) return tooMany;
  }
  if (!(await countLinkRequest(db, { table: 'approval_links', id: linkId, limit: APPROVAL_LINK_RATE_PER_MINUTE })))
    return tooMany;
  return check;
}

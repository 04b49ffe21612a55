import type { Executor } from '@/db/client';
import { insertAuditEntry } from '@/db/queries/approvals';
import { countAddressRequest, countLinkRequest, pruneAddressWindows } from '@/db/queries/rate-windows';
import { getRequestLink, insertRequestLink, revokeRequestLink } from '@/db/queries/requests';
import type { RequestLink } from '@/db/schema';
import { linkSecretMatches, newLinkSecret, parseLinkToken } from '@/lib/crypto/link-token';

/**
 * Requests per minute from one client address on a link (page views, uploads, submits), counted first; and a far
 * higher ceiling for the whole link, so one holder hammering it cannot lock every other client out.
 */
export const REQUEST_ADDRESS_RATE_PER_MINUTE = 20;
export const REQUEST_LINK_RATE_PER_MINUTE = 600;

/**
 * A new request link; the token (`<id>.<secret>`) is returned once, only its secret's hash is kept. `expiresAt`
 * (optional) ends it like a revocation (410); without it the link works until revoked.
 */
export async function createRequestLink(
  db: Executor,
  params: { workspaceId: string; userId: string; label: string; expiresAt?: Date | null },
) {
  const { secret, secretHash } = newLinkSecret();
  const { id } = await insertRequestLink(db, {
    workspaceId: params.workspaceId,
    secretHash,
    label: params.label,
    createdByUserId: params.userId,
    expiresAt: params.expiresAt ?? null,
  });
  await insertAuditEntry(db, {
    workspaceId: params.workspaceId,
    actorUserId: params.userId,
    action: 'request_link.created',
    targetType: 'request_link',
    targetId: id,
    detail: { label: params.label, expiresAt: params.expiresAt?.toISOString() ?? null },
  });
  return { id, token: `${id}.${secret}` };
}

export async function revokeRequestLinkAudited(
  db: Executor,
  params: { workspaceId: string; userId: string; id: string },
) {
  const revoked = await revokeRequestLink(db, { workspaceId: params.workspaceId, id: params.id });
  if (revoked)
    await insertAuditEntry(db, {
      workspaceId: params.workspaceId,
      actorUserId: params.userId,
      action: 'request_link.revoked',
      targetType: 'request_link',
      targetId: params.id,
      detail: { label: revoked.label },
    });
  return Boolean(revoked);
}

export type RequestLinkCheck =
  | { ok: true; link: RequestLink }
  /** 404 unknown or altered link; 410 revoked or expired; 429 too many requests for the link or from this address. */
  | { ok: false; status: 404 | 410 | 429; title: string; detail: string };

const NOT_FOUND = {
  ok: false,
  status: 404,
  title: 'Link not found',
  detail: 'This request link does not exist. Check that you copied all of it.',
} as const;

/** What a client's request token names, without counting the request (the proxy answers the page's status with it). */
export async function inspectRequestLink(db: Executor, token: string): Promise<RequestLinkCheck> {
  const parsed = parseLinkToken(token);
  if (!parsed) return NOT_FOUND;
  const link = await getRequestLink(db, { id: parsed.id });
  // An altered secret is not told apart from an unknown link: both are "not found" to someone guessing.
  if (!link || !linkSecretMatches(parsed.secret, link.secretHash)) return NOT_FOUND;
  if (link.revokedAt)
    return {
      ok: false,
      status: 410,
      title: 'Link revoked',
      detail: 'This request link was revoked. Ask your agency for a new one.',
    };
  if (link.expiresAt && link.expiresAt.getTime() <= Date.now())
    return {
      ok: false,
      status: 410,
      title: 'Link expired',
      detail: 'This request link has expired. Ask your agency for a new one.',
    };
  return { ok: true, link };
}

/**
 * Resolves a client's request token without a session: the token alone decides. Each call counts against the
 * link's and the address's one-minute windows (`address` null: the link's only).
 */
export async function checkRequestLink(db: Executor, token: string, address: string | null): Promise<RequestLinkCheck> {
  const check = await inspectRequestLink(db, token);
  if (!check.ok) return check;
  const { link } = check;
  const tooMany = {
    ok: false,
    status: 429,
    title: 'Too many requests',
    detail: 'Please wait a minute and try again.',
  } as const;
  // Per address first: a request refused there never spends the link's shared budget.
  if (address !== null) {
    const within = await countAddressRequest(db, { linkId: link.id, address, limit: REQUEST_ADDRESS_RATE_PER_MINUTE });
    await pruneAddressWindows(db, { linkId: link.id });
    if (!within) return tooMany;
  }
  if (!(await countLinkRequest(db, { table: 'request_links', id: link.id, limit: REQUEST_LINK_RATE_PER_MINUTE })))
    return tooMany;
  return { ok: true, link };
}

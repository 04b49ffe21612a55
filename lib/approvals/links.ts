import type { Executor } from '@/db/client';
import { countLinkRequest } from '@/db/queries/rate-windows';
import { getApprovalLink, insertApprovalLink, listPendingApprovals } from '@/db/queries/approvals';
import type { ApprovalLink } from '@/db/schema';
import { linkSecretMatches, newLinkSecret, parseLinkToken } from '@/lib/crypto/link-token';

/** How long a client link works; an admin can revoke it sooner. */
export const APPROVAL_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Requests per minute one link may make to the public route (page views and decisions). */
export const APPROVAL_LINK_RATE_PER_MINUTE = 60;

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
  /** 404 unknown link; 401 a known link with the wrong secret (tampered); 410 expired or revoked; 429 too many. */
  | { ok: false; status: 401 | 404 | 410 | 429; title: string; detail: string };

/**
 * Resolves a client's token: no session, so the token alone decides — unknown, tampered, expired and revoked
 * links are told apart (each a clear page), and each request counts against the link's rate limit.
 */
export async function checkApprovalLink(db: Executor, token: string, now = new Date()): Promise<LinkCheck> {
  const notFound = {
    ok: false,
    status: 404,
    title: 'Link not found',
    detail: 'This approval link does not exist. Check that you copied all of it.',
  } as const;
  const parsed = parseLinkToken(token);
  if (!parsed) return notFound;
  const link = await getApprovalLink(db, { id: parsed.id });
  if (!link) return notFound;
  if (!linkSecretMatches(parsed.secret, link.secretHash))
    return {
      ok: false,
      status: 401,
      title: 'Link not valid',
      detail: 'This approval link has been altered. Ask for a new link.',
    };
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
  if (!(await countLinkRequest(db, { table: 'approval_links', id: link.id, limit: APPROVAL_LINK_RATE_PER_MINUTE })))
    return { ok: false, status: 429, title: 'Too many requests', detail: 'Please wait a minute and try again.' };
  return { ok: true, link };
}

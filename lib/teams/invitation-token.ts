import { createHash, createHmac } from 'node:crypto';
import { parseLinkToken } from '@/lib/crypto/link-token';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The link's token, `<invitation id>.<HMAC(server key, id, version)>`: the sender can rebuild it from the key, so
 * the database keeps only its hash (a copy of the database alone opens no invitation). A resend bumps the version.
 */
export function invitationToken(invitationId: string, tokenVersion: number, keyBase64: string): string {
  const mac = createHmac('sha256', Buffer.from(keyBase64, 'base64'))
    .update(`semel-invitation:${invitationId}:${tokenVersion}`)
    .digest('base64url');
  return `${invitationId}.${mac}`;
}

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The hash to look a link up by, or null for a malformed token (a refusal without a query). */
export function invitationTokenHash(token: string): string | null {
  return parseLinkToken(token) ? hashInvitationToken(token) : null;
}

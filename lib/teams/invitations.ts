import { randomUUID } from 'node:crypto';
import type { Database } from '@/db/client';
import { insertAuditEntry } from '@/db/queries/approvals';
import {
  getInvitationByTokenHash,
  insertInvitation,
  insertInvitationSend,
  lockOpenInvitation,
  markInvitationAccepted,
  reissueInvitation,
  revokeInvitation,
  type InvitationRole,
} from '@/db/queries/invitations';
import { findOrCreateUser, getUserCredentialsByEmail } from '@/db/queries/users';
import { addMembershipOnce, getMemberRole } from '@/db/queries/workspaces';
import { users } from '@/db/schema';
import { hashInvitationToken, INVITATION_TTL_MS, invitationToken, invitationTokenHash } from './invitation-token';

type Actor = { workspaceId: string; actorUserId: string };

/**
 * Invites an address with a role: the invitation (its token's hash only) and its email send are written in one
 * transaction; the notifications sender delivers it (SMTP, or the Outbox without SMTP). Inviting an address that
 * has an open invitation is refused by workspace_invitations_open_uq (resend that one instead).
 */
export async function inviteMember(
  db: Database,
  params: Actor & { email: string; role: InvitationRole; key: string; now?: Date },
): Promise<{ ok: true; invitationId: string; sendId: string } | { ok: false; reason: 'member' | 'invited' }> {
  const email = params.email.toLowerCase();
  const existing = await getUserCredentialsByEmail(db, { email });
  if (existing && (await getMemberRole(db, { workspaceId: params.workspaceId, userId: existing.id })))
    return { ok: false, reason: 'member' };
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const inserted = await insertInvitation(tx, {
      id,
      workspaceId: params.workspaceId,
      email,
      role: params.role,
      tokenHash: hashInvitationToken(invitationToken(id, 1, params.key)),
      invitedByUserId: params.actorUserId,
      expiresAt: new Date((params.now ?? new Date()).getTime() + INVITATION_TTL_MS),
    });
    if (!inserted) return { ok: false as const, reason: 'invited' as const };
    const sendId = await insertInvitationSend(tx, {
      workspaceId: params.workspaceId,
      invitationId: id,
      tokenVersion: 1,
    });
    await audit(tx, params, 'invitation.created', id, { email, role: params.role });
    return { ok: true as const, invitationId: id, sendId: sendId! };
  });
}

/** A new link (the old one stops working) and a new email; the 7 days start again. */
export async function resendInvitation(db: Database, params: Actor & { id: string; key: string; now?: Date }) {
  return db.transaction(async (tx) => {
    const open = await lockOpenInvitation(tx, { workspaceId: params.workspaceId, id: params.id });
    if (!open) return null;
    const version = open.tokenVersion + 1;
    await reissueInvitation(tx, {
      workspaceId: params.workspaceId,
      id: open.id,
      fromVersion: open.tokenVersion,
      tokenHash: hashInvitationToken(invitationToken(open.id, version, params.key)),
      expiresAt: new Date((params.now ?? new Date()).getTime() + INVITATION_TTL_MS),
    });
    const sendId = await insertInvitationSend(tx, {
      workspaceId: params.workspaceId,
      invitationId: open.id,
      tokenVersion: version,
    });
    await audit(tx, params, 'invitation.resent', open.id, { email: open.email });
    return { sendId: sendId! };
  });
}

export async function revokeInvitationAudited(db: Database, params: Actor & { id: string }) {
  return db.transaction(async (tx) => {
    const revoked = await revokeInvitation(tx, { workspaceId: params.workspaceId, id: params.id });
    if (revoked) await audit(tx, params, 'invitation.revoked', params.id, { email: revoked.email });
    return Boolean(revoked);
  });
}

export type AcceptRefusal = 'invalid' | 'expired' | 'revoked' | 'used' | 'email_mismatch' | 'account_exists';
/** What the invitee reads for each refusal. */
export const ACCEPT_REFUSALS: Record<AcceptRefusal, string> = {
  invalid: 'This invitation link is not valid.',
  expired: 'This invitation has expired: ask for a new one.',
  revoked: 'This invitation was revoked.',
  used: 'This invitation has already been used.',
  email_mismatch: 'This invitation is for another email address: sign out and open the link again.',
  account_exists: 'An account with this email exists: sign in to accept the invitation.',
};

export type AcceptResult =
  | { ok: true; userId: string; workspaceId: string; workspaceSlug: string; newUser: boolean }
  | { ok: false; reason: AcceptRefusal };

/**
 * Accepts an invitation, once: as the signed-in user (whose email must be the invited one), by signing up a new
 * user, or through single sign-on (the issuer's verified email must be the invited one; the user is created without
 * a password when new). The invitation's row lock serialises two accepts of one link; the second sees it used. The
 * membership is added with ON CONFLICT DO NOTHING on memberships_pk, so even a bypassed lock makes one membership.
 */
export async function acceptInvitation(
  db: Database,
  params: {
    token: string;
    signedIn: { id: string; email: string } | null;
    signUp?: { name: string; passwordHash: string };
    singleSignOn?: { email: string; name: string };
  },
): Promise<AcceptResult> {
  const tokenHash = invitationTokenHash(params.token);
  if (!tokenHash) return { ok: false, reason: 'invalid' };
  return db.transaction(async (tx): Promise<AcceptResult> => {
    const invitation = await getInvitationByTokenHash(tx, { tokenHash, lock: true });
    if (!invitation) return { ok: false, reason: 'invalid' };
    if (invitation.revokedAt) return { ok: false, reason: 'revoked' };
    if (invitation.acceptedAt) return { ok: false, reason: 'used' };
    if (invitation.expired) return { ok: false, reason: 'expired' };
    let userId: string;
    let newUser: boolean;
    if (params.signedIn) {
      if (params.signedIn.email.toLowerCase() !== invitation.email) return { ok: false, reason: 'email_mismatch' };
      userId = params.signedIn.id;
      newUser = false;
    } else if (params.signUp) {
      const [created] = await tx
        .insert(users)
        .values({ email: invitation.email, name: params.signUp.name, passwordHash: params.signUp.passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning({ id: users.id });
      if (!created) return { ok: false, reason: 'account_exists' };
      userId = created.id;
      newUser = true;
    } else if (params.singleSignOn) {
      if (params.singleSignOn.email.toLowerCase() !== invitation.email) return { ok: false, reason: 'email_mismatch' };
      // The issuer proved the address: an existing account joins, a new one is made (it can set a password later).
      const user = await findOrCreateUser(tx, { email: invitation.email, name: params.singleSignOn.name });
      userId = user.id;
      newUser = user.created;
    } else return { ok: false, reason: 'invalid' };
    if (!(await markInvitationAccepted(tx, { id: invitation.id, userId }))) return { ok: false, reason: 'used' };
    await addMembershipOnce(tx, { workspaceId: invitation.workspaceId, userId, role: invitation.role });
    const actor = { workspaceId: invitation.workspaceId, actorUserId: userId };
    const method = params.singleSignOn ? { method: 'oidc' } : {};
    await audit(tx, actor, 'invitation.accepted', invitation.id, { email: invitation.email, ...method });
    await audit(tx, actor, 'member.added', userId, { email: invitation.email, role: invitation.role });
    return {
      ok: true,
      userId,
      workspaceId: invitation.workspaceId,
      workspaceSlug: invitation.workspaceSlug,
      newUser,
    };
  });
}

/** The accept of an OIDC sign-in: `email` is the one the issuer verified, `name` the profile's (for a new user). */
export function acceptInvitationWithSso(db: Database, params: { token: string; email: string; name: string }) {
  return acceptInvitation(db, { token: params.token, signedIn: null, singleSignOn: params });
}

export type InvitationView =
  | { open: true; workspaceName: string; email: string; role: InvitationRole; accountExists: boolean }
  | { open: false; reason: AcceptRefusal };

/** What the invitation page shows for a link (no lock, no write): open with its workspace, or why not. */
export async function describeInvitation(db: Database, token: string): Promise<InvitationView> {
  const tokenHash = invitationTokenHash(token);
  const invitation = tokenHash ? await getInvitationByTokenHash(db, { tokenHash }) : null;
  if (!invitation) return { open: false, reason: 'invalid' };
  if (invitation.revokedAt) return { open: false, reason: 'revoked' };
  if (invitation.acceptedAt) return { open: false, reason: 'used' };
  if (invitation.expired) return { open: false, reason: 'expired' };
  const accountExists = Boolean(await getUserCredentialsByEmail(db, { email: invitation.email }));
  return {
    open: true,
    workspaceName: invitation.workspaceName,
    email: invitation.email,
    role: invitation.role,
    accountExists,
  };
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
const audit = (tx: Tx, actor: Actor, action: string, targetId: string, detail: Record<string, unknown>) =>
  insertAuditEntry(tx, {
    workspaceId: actor.workspaceId,
    actorUserId: actor.actorUserId,
    action,
    targetType: action.split('.')[0]!,
    targetId,
    detail,
  });

import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { rows } from './deliveries/rows';

// Invitations to a workspace (Settings → Members). Every query names the workspace, except the lookups by the
// token's hash, which is how an invitee (not yet a member) finds one.

export type InvitationRole = 'admin' | 'manager' | 'viewer';

export type OpenInvitation = {
  id: string;
  email: string;
  role: InvitationRole;
  tokenVersion: number;
  expiresAt: Date;
  expired: boolean;
  createdAt: Date;
};

export type InvitationByToken = {
  id: string;
  workspaceId: string;
  workspaceName: string;
  workspaceSlug: string;
  email: string;
  role: InvitationRole;
  expired: boolean;
  acceptedAt: Date | null;
  revokedAt: Date | null;
};

export async function insertInvitation(
  db: Executor,
  params: {
    id: string;
    workspaceId: string;
    email: string;
    role: InvitationRole;
    tokenHash: string;
    invitedByUserId: string;
    expiresAt: Date;
  },
) {
  // A second open invitation for the address is refused by workspace_invitations_open_uq: null, nothing written.
  const [row] = rows<{ id: string }>(
    await db.execute(sql`
      insert into workspace_invitations (id, workspace_id, email, role, token_hash, invited_by_user_id, expires_at)
      values (${params.id}, ${params.workspaceId}, ${params.email}, ${params.role}::role, ${params.tokenHash},
              ${params.invitedByUserId}, ${params.expiresAt.toISOString()}::timestamptz)
      on conflict (workspace_id, email) where accepted_at is null and revoked_at is null do nothing
      returning id`),
  );
  return row?.id ?? null;
}

/** The open (not accepted, not revoked) invitation, locked for a resend or a revoke. */
export async function lockOpenInvitation(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = rows<{ id: string; email: string; role: InvitationRole; tokenVersion: number }>(
    await db.execute(sql`
      select id, email, role, token_version as "tokenVersion" from workspace_invitations
      where workspace_id = ${params.workspaceId} and id = ${params.id} and accepted_at is null and revoked_at is null
      for update`),
  );
  return row ?? null;
}

/** A new link for an open invitation: the version moves on (the old link stops working) and the 7 days restart. */
export async function reissueInvitation(
  db: Executor,
  params: { workspaceId: string; id: string; fromVersion: number; tokenHash: string; expiresAt: Date },
) {
  const moved = rows<{ id: string }>(
    await db.execute(sql`
      update workspace_invitations
      set token_version = token_version + 1, token_hash = ${params.tokenHash},
          expires_at = ${params.expiresAt.toISOString()}::timestamptz
      where workspace_id = ${params.workspaceId} and id = ${params.id} and token_version = ${params.fromVersion}
        and accepted_at is null and revoked_at is null
      returning id`),
  );
  return moved.length === 1;
}

export async function revokeInvitation(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = rows<{ email: string }>(
    await db.execute(sql`
      update workspace_invitations set revoked_at = now()
      where workspace_id = ${params.workspaceId} and id = ${params.id} and accepted_at is null and revoked_at is null
      returning email`),
  );
  return row ?? null;
}

/** Invitations not yet accepted or revoked (expired ones included, to resend), newest first; never the hash. */
export async function listOpenInvitations(db: Executor, params: { workspaceId: string }) {
  return rows<OpenInvitation>(
    await db.execute(sql`
      select id, email, role, token_version as "tokenVersion", expires_at as "expiresAt",
             expires_at <= now() as expired, created_at as "createdAt"
      from workspace_invitations
      where workspace_id = ${params.workspaceId} and accepted_at is null and revoked_at is null
      order by created_at desc`),
  ).map((r) => ({ ...r, expiresAt: new Date(r.expiresAt), createdAt: new Date(r.createdAt) }));
}

/**
 * The invitation a link names, with its workspace (never a deleted one); `lock` takes its row lock, so two
 * accepts of one link (double click, two tabs) are serialised and the second sees the first's `acceptedAt`.
 */
export async function getInvitationByTokenHash(
  db: Executor,
  params: { tokenHash: string; lock?: boolean },
): Promise<InvitationByToken | null> {
  const [row] = rows<InvitationByToken>(
    await db.execute(sql`
      select i.id, i.workspace_id as "workspaceId", w.name as "workspaceName", w.slug as "workspaceSlug", i.email,
             i.role, i.expires_at <= now() as expired, i.accepted_at as "acceptedAt", i.revoked_at as "revokedAt"
      from workspace_invitations i join workspaces w on w.id = i.workspace_id
      where i.token_hash = ${params.tokenHash} and w.deleted_at is null
      ${params.lock ? sql`for update of i` : sql``}`),
  );
  return row ?? null;
}

/** Single use: only an open, unexpired invitation is marked accepted (one statement; the caller holds its lock). */
export async function markInvitationAccepted(db: Executor, params: { id: string; userId: string }) {
  const moved = rows<{ id: string }>(
    await db.execute(sql`
      update workspace_invitations set accepted_at = now(), accepted_by_user_id = ${params.userId}
      where id = ${params.id} and accepted_at is null and revoked_at is null and expires_at > now()
      returning id`),
  );
  return moved.length === 1;
}

/** The invitation's email, sent by the notifications sender; one send per link version (the key). */
export async function insertInvitationSend(
  db: Executor,
  params: { workspaceId: string; invitationId: string; tokenVersion: number },
) {
  const [row] = rows<{ id: string }>(
    await db.execute(sql`
      insert into notification_sends (workspace_id, key, channel, invitation_id, status, next_attempt_at)
      values (${params.workspaceId}, ${`invitation:${params.invitationId}:${params.tokenVersion}`}, 'email',
              ${params.invitationId}, 'pending', now())
      on conflict (key) do nothing
      returning id`),
  );
  return row?.id ?? null;
}

import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { emailChanges, users } from '../schema';
import { rows } from './deliveries/rows';

/** A pending change to `newEmail`; its link expires after 24 hours. Returns the link id. */
export async function createEmailChange(
  db: Executor,
  params: { userId: string; newEmail: string; secretHash: string },
) {
  const [row] = await db
    .insert(emailChanges)
    .values({ ...params, expiresAt: sql`now() + interval '24 hours'` })
    .returning({ id: emailChanges.id });
  return row!.id;
}

export async function emailInUse(db: Executor, params: { email: string }) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, params.email));
  return Boolean(row);
}

export type EmailChangeOutcome = { changed: true; email: string } | { changed: false; reason: 'invalid' | 'taken' };

/**
 * Follows a link, once: one statement spends the link (unused, unexpired, its hash matching, the signed-in user's),
 * changes the email and deletes the user's session rows but `keepSessionId` (a session without its row is signed
 * out: lib/auth/session-user.ts). Another account taking the address meanwhile fails the statement on
 * `users_email_uq`, and nothing is written (the link stays unused, the sessions stay). The hash is of 32 random
 * bytes: comparing it in SQL leaks nothing.
 */
export async function applyEmailChange(
  db: Executor,
  params: { id: string; userId: string; secretHash: string; keepSessionId: string | null },
): Promise<EmailChangeOutcome> {
  try {
    const [row] = rows<{ email: string }>(
      await db.execute(sql`
        with link as (
          update email_changes set used_at = now()
          where id = ${params.id} and user_id = ${params.userId} and secret_hash = ${params.secretHash}
            and used_at is null and expires_at > now()
          returning user_id, new_email
        ), others as (
          delete from sessions
          where user_id in (select user_id from link) and id is distinct from ${params.keepSessionId}::uuid
        )
        update users set email = link.new_email from link where users.id = link.user_id
        returning users.email`),
    );
    return row ? { changed: true, email: row.email } : { changed: false, reason: 'invalid' };
  } catch (error) {
    if (isEmailTaken(error)) return { changed: false, reason: 'taken' };
    throw error;
  }
}

function isEmailTaken(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { constraint_name?: string }).constraint_name === 'users_email_uq') return true;
  }
  return false;
}

/**
 * The email for the Outbox page (no SMTP): a send row already `sent` and its stored copy, in one statement, keyed
 * `email-change:<link>` so the same link is never stored twice. Kept in the workspace the member asked from.
 */
export async function storeEmailChangeOutbox(
  db: Executor,
  params: { linkId: string; workspaceId: string; userId: string; toAddress: string; subject: string; body: string },
) {
  await db.execute(sql`
    with send as (
      insert into notification_sends (workspace_id, key, channel, user_id, status, attempts, sent_at)
      values (${params.workspaceId}, ${`email-change:${params.linkId}`}, 'email', ${params.userId}, 'sent', 1, now())
      on conflict (key) do nothing
      returning id
    )
    insert into outbox_emails (workspace_id, send_id, user_id, to_address, subject, body)
    select ${params.workspaceId}, send.id, ${params.userId}, ${params.toAddress}, ${params.subject}, ${params.body}
    from send`);
}

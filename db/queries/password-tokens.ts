import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { passwordTokens } from '../schema';

export type PasswordTokenPurpose = (typeof passwordTokens.$inferInsert)['purpose'];

export async function insertPasswordToken(
  db: Executor,
  params: { userId: string; purpose: PasswordTokenPurpose; tokenHash: string; expiresAt: Date },
) {
  await db.insert(passwordTokens).values(params);
}

/**
 * Uses a token and sets the password in one statement: the token is marked used only while unused and unexpired,
 * so two submits of one link set the password once. The user's other tokens end too, and `session_version` is
 * bumped so every session signed in before stops working. Returns the user, or null for an unusable token.
 */
export async function consumePasswordToken(
  db: Executor,
  params: { tokenHash: string; passwordHash: string; now?: Date },
): Promise<{ userId: string; email: string; purpose: PasswordTokenPurpose } | null> {
  const now = (params.now ?? new Date()).toISOString();
  const [row] = await db.execute<{ userId: string; email: string; purpose: PasswordTokenPurpose }>(sql`
    with used as (
      update password_tokens set used_at = ${now}::timestamptz
      where token_hash = ${params.tokenHash} and used_at is null and expires_at > ${now}::timestamptz
      returning user_id, purpose
    ), others as (
      update password_tokens set used_at = ${now}::timestamptz
      where user_id in (select user_id from used) and used_at is null and token_hash <> ${params.tokenHash}
    )
    update users set password_hash = ${params.passwordHash}, session_version = session_version + 1
    from used where users.id = used.user_id
    returning users.id as "userId", users.email, used.purpose`);
  return row ?? null;
}

/** Whether a token could still be used (the page shows the form, or says the link has ended). */
export async function passwordTokenUsable(db: Executor, params: { tokenHash: string; now?: Date }) {
  const [row] = await db.execute<{ purpose: PasswordTokenPurpose }>(sql`
    select purpose from password_tokens
    where token_hash = ${params.tokenHash} and used_at is null
      and expires_at > ${(params.now ?? new Date()).toISOString()}::timestamptz`);
  return row?.purpose ?? null;
}

/**
 * Counts one reset request under `key` in a fixed window, as one upsert (parallel requests cannot all pass a
 * read-then-write check). Returns the count including this request.
 */
export async function countResetRequest(db: Executor, params: { key: string; windowMs: number; now?: Date }) {
  const now = params.now ?? new Date();
  const restart = sql`w.window_start <= ${new Date(now.getTime() - params.windowMs).toISOString()}::timestamptz`;
  const [row] = await db.execute<{ count: number }>(sql`
    insert into password_reset_windows as w (key, window_start, count) values (${params.key}, ${now.toISOString()}::timestamptz, 1)
    on conflict (key) do update set
      window_start = case when ${restart} then ${now.toISOString()}::timestamptz else w.window_start end,
      count = case when ${restart} then 1 else w.count + 1 end
    returning count`);
  return row!.count;
}

/**
 * Housekeeping, run after each reset request (there is no job for it): up to 100 windows that started before
 * `windowsBefore` and 100 tokens that expired before `tokensBefore`. Skips rows other requests hold: it never waits.
 */
export async function prunePasswordRows(db: Executor, params: { windowsBefore: Date; tokensBefore: Date }) {
  const [windowsBefore, tokensBefore] = [params.windowsBefore.toISOString(), params.tokensBefore.toISOString()];
  await db.execute(sql`
    delete from password_reset_windows where key in (
      select key from password_reset_windows where window_start < ${windowsBefore}::timestamptz
      limit 100 for update skip locked)`);
  await db.execute(sql`
    delete from password_tokens where id in (
      select id from password_tokens where expires_at < ${tokensBefore}::timestamptz
      limit 100 for update skip locked)`);
}

/**
 * An account email kept in the Outbox (SMTP_URL unset): in the user's first workspace, with no send row, shown to
 * that user only (an admin reading a member's reset link could take the account over). Returns false when the user
 * belongs to no workspace (no Outbox could show it).
 */
export async function storeAccountOutboxEmail(
  db: Executor,
  params: { userId: string; to: string; subject: string; text: string },
) {
  const stored = await db.execute<{ id: string }>(sql`
    insert into outbox_emails (workspace_id, user_id, recipient_only, to_address, subject, body)
    select m.workspace_id, ${params.userId}, true, ${params.to}, ${params.subject}, ${params.text}
    from memberships m where m.user_id = ${params.userId}
    order by m.created_at, m.workspace_id limit 1
    returning id`);
  return stored.length > 0;
}

import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { rows } from './deliveries/rows';
import { claimDueSql, outboxLeaseHeld } from './leased-outbox';

// Email and Slack sends of notifications (docs/team.md#notifications). Rows are written by the
// notifications_fan_out trigger (migration 0016); claims are the leased outbox's (./leased-outbox.ts): SKIP
// LOCKED picks one sender, a lease and a generation fence every write after it.

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export type ClaimedNotificationSend = {
  id: string;
  generation: number;
  attempts: number;
  channel: 'email' | 'slack' | 'email_digest';
  workspaceId: string;
  workspaceName: string;
  userId: string | null;
  toAddress: string | null;
  kind: string | null;
  message: string | null;
  notificationCreatedAt: string | null;
  /** The post it is about (a delivery's or an approval's), so the reader knows which one. */
  postText: string | null;
  digestDay: string | null;
  createdAt: string;
  slackUrlSealed: string | null;
  /** An invitation email: its recipient is the invitation's address; `invitationOpen` false once used or revoked. */
  invitationId: string | null;
  invitationVersion: number | null;
  invitationRole: string | null;
  invitationOpen: boolean | null;
  invitedByName: string | null;
  /** A monthly client report's email: the month (YYYY-MM) it covers; its recipient is the report's address. */
  clientReportId: string | null;
  clientReportPeriod: string | null;
};

/** Claims due sends for one sender (the shared claim, ./leased-outbox.ts); the generation grows each claim. */
export async function claimDueNotificationSends(
  db: Executor,
  params: { now: Date; limit: number; leaseMs: number; sendIds?: string[] },
): Promise<ClaimedNotificationSend[]> {
  return rows<ClaimedNotificationSend>(
    await db.execute(
      claimDueSql(
        'notification_sends',
        { now: params.now, limit: params.limit, leaseMs: params.leaseMs, ids: params.sendIds },
        {
          select: sql`
            select c.id, c.generation, c.attempts, c.channel, c.workspace_id as "workspaceId", w.name as "workspaceName",
                   c.user_id as "userId", coalesce(u.email, i.email, cr.to_address) as "toAddress", n.kind, n.message,
                   to_json(n.created_at)#>>'{}' as "notificationCreatedAt", p.text as "postText", c.digest_day as "digestDay",
                   to_json(c.created_at)#>>'{}' as "createdAt", sw.url_sealed as "slackUrlSealed",
                   c.invitation_id as "invitationId", i.token_version as "invitationVersion", i.role::text as "invitationRole",
                   (i.accepted_at is null and i.revoked_at is null and i.expires_at > now()) as "invitationOpen",
                   inviter.name as "invitedByName", c.client_report_id as "clientReportId",
                   cr.period as "clientReportPeriod"
            from claimed c
            join workspaces w on w.id = c.workspace_id
            left join users u on u.id = c.user_id
            left join notifications n on n.id = c.notification_id
            left join deliveries d on d.id = n.delivery_id
            left join posts p on p.id = coalesce(d.post_id, n.post_id)
            left join slack_webhooks sw on sw.workspace_id = c.workspace_id and c.channel = 'slack'
            left join workspace_invitations i on i.id = c.invitation_id and i.workspace_id = c.workspace_id
            left join users inviter on inviter.id = i.invited_by_user_id
            left join client_reports cr on cr.id = c.client_report_id and cr.workspace_id = c.workspace_id`,
        },
      ),
    ),
  );
}

/**
 * Records a send's outcome, fenced by the claim's generation: a sender whose lease ran out (and whose send another
 * sender took) writes nothing. A failure with `nextAttemptAt` null is given up.
 */
export async function recordNotificationSend(
  db: Executor,
  params: { id: string; generation: number; ok: boolean; error: string | null; nextAttemptAt: Date | null },
): Promise<boolean> {
  const status = params.ok ? 'sent' : params.nextAttemptAt ? 'pending' : 'failed';
  const moved = rows<{ id: string }>(
    await db.execute(sql`
      update notification_sends
      set status = ${status}, attempts = attempts + 1, last_error = ${params.error ? params.error.slice(0, 300) : null},
          next_attempt_at = ${params.nextAttemptAt ? at(params.nextAttemptAt) : sql`next_attempt_at`},
          sent_at = ${params.ok ? sql`now()` : sql`null`}, lease_expires_at = null
      where id = ${params.id} and generation = ${params.generation} and status = 'pending'
      returning id`),
  );
  return moved.length > 0;
}

/**
 * Without SMTP: the email is stored for the Outbox page and its send marked sent in one statement, fenced by the
 * generation; `outbox_emails_send_uq` refuses a second copy of one send even if the fence were bypassed.
 */
export async function storeOutboxEmail(
  db: Executor,
  params: {
    sendId: string;
    generation: number;
    workspaceId: string;
    userId: string | null;
    toAddress: string;
    subject: string;
    body: string;
  },
): Promise<boolean> {
  const stored = rows<{ id: string }>(
    await db.execute(sql`
      with moved as (
        update notification_sends set status = 'sent', attempts = attempts + 1, sent_at = now(), lease_expires_at = null,
          last_error = null
        where id = ${params.sendId} and generation = ${params.generation} and status = 'pending'
        returning id
      )
      insert into outbox_emails (workspace_id, send_id, user_id, to_address, subject, body)
      select ${params.workspaceId}, moved.id, ${params.userId}, ${params.toAddress}, ${params.subject}, ${params.body}
      from moved
      on conflict (send_id) do nothing
      returning id`),
  );
  return stored.length > 0;
}

/**
 * Bundles the digest rows of days before `today` (UTC, YYYY-MM-DD): one `email_digest` send per member, workspace
 * and day (`digest:<workspace>:<user>:<day>`, unique), and each row linked to it. Only a digest no sender has
 * claimed yet takes rows (its row lock keeps a claim out meanwhile). Returns how many rows were bundled.
 */
export async function bundleDailyDigests(db: Executor, params: { today: string; now: Date }): Promise<number> {
  // A row committed after its day's digest was already claimed gets a digest of its own (keyed by its first row).
  await db.execute(sql`
    with days as (
      select workspace_id, user_id, digest_day, min(id::text) as first_id,
             'digest:' || workspace_id::text || ':' || user_id::text || ':' || digest_day as base
      from notification_sends where status = 'digest' and digest_day < ${params.today}
      group by workspace_id, user_id, digest_day
    )
    insert into notification_sends (workspace_id, key, channel, user_id, digest_day, status, next_attempt_at)
    select workspace_id,
           case when exists (select 1 from notification_sends d where d.key = days.base and (d.generation > 0 or d.status <> 'pending'))
             then days.base || ':' || days.first_id else days.base end,
           'email_digest'::notification_channel, user_id, digest_day, 'pending'::notification_send_status, ${at(params.now)}
    from days
    on conflict (key) do nothing`);
  const bundled = rows<{ id: string }>(
    await db.execute(sql`
      with digests as (
        select d.id, d.workspace_id, d.user_id, d.digest_day from notification_sends d
        where d.channel = 'email_digest' and d.status = 'pending' and d.generation = 0 and d.digest_day < ${params.today}
        for update skip locked
      )
      update notification_sends s set status = 'bundled', digest_send_id = digests.id
      from digests
      where s.status = 'digest' and s.workspace_id = digests.workspace_id and s.user_id = digests.user_id
        and s.digest_day = digests.digest_day
      returning s.id`),
  );
  return bundled.length;
}

/** The notifications one digest send bundles, oldest first. */
export async function listDigestItems(db: Executor, params: { digestSendId: string }) {
  return rows<{ kind: string; message: string; createdAt: string; postText: string | null }>(
    await db.execute(sql`
      select n.kind, n.message, to_json(n.created_at)#>>'{}' as "createdAt", p.text as "postText"
      from notification_sends s join notifications n on n.id = s.notification_id
      left join deliveries d on d.id = n.delivery_id
      left join posts p on p.id = coalesce(d.post_id, n.post_id)
      where s.digest_send_id = ${params.digestSendId}
      order by n.created_at, n.id`),
  );
}

export type OutboxEmailRow = {
  id: string;
  toAddress: string;
  subject: string;
  body: string;
  createdAt: string;
};

/**
 * The workspace's stored emails, newest first; `userId` limits them to one member's own. Account emails (password
 * links) are only ever shown to their own user, the `viewerId`.
 */
export async function listOutboxEmails(
  db: Executor,
  params: { workspaceId: string; userId: string | null; viewerId: string; limit: number },
) {
  const mine = params.userId ? sql`and user_id = ${params.userId}` : sql``;
  return rows<OutboxEmailRow>(
    await db.execute(sql`
      select id, to_address as "toAddress", subject, body, to_json(created_at)#>>'{}' as "createdAt"
      from outbox_emails where workspace_id = ${params.workspaceId} ${mine}
        and (not recipient_only or user_id = ${params.viewerId})
      order by created_at desc, id desc
      limit ${params.limit}`),
  );
}

/** A one-off Slack test message ("Send test"), or null when the workspace has no Slack webhook. */
export async function insertSlackTestSend(db: Executor, params: { workspaceId: string; testId: string }) {
  const [row] = rows<{ id: string }>(
    await db.execute(sql`
      insert into notification_sends (workspace_id, key, channel, status, next_attempt_at)
      select workspace_id, 'slack-test:' || ${params.testId}, 'slack', 'pending', now()
      from slack_webhooks where workspace_id = ${params.workspaceId}
      on conflict (key) do nothing
      returning id`),
  );
  return row?.id ?? null;
}

export async function getNotificationSendResult(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = rows<{ status: string; lastError: string | null }>(
    await db.execute(sql`
      select status, last_error as "lastError" from notification_sends
      where workspace_id = ${params.workspaceId} and id = ${params.id}`),
  );
  return row ?? null;
}

/** Whether this claim still holds its send: checked right before an external call, so a lapsed lease sends nothing. */
export function notificationLeaseHeld(db: Executor, params: { id: string; generation: number; now: Date }) {
  return outboxLeaseHeld(db, { table: 'notification_sends', ...params });
}

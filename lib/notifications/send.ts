import type { Database } from '@/db/client';
import {
  bundleDailyDigests,
  claimDueNotificationSends,
  listDigestItems,
  notificationLeaseHeld,
  recordNotificationSend,
  storeOutboxEmail,
  type ClaimedNotificationSend,
} from '@/db/queries/notification-sends';
import { getEnv } from '@/lib/env';
import { runLeasedOutbox, type LeasedOutbox } from '@/lib/jobs/leased-outbox';
import { logger } from '@/lib/logging/logger';
import { maskPersonalText } from '@/lib/logging/mask';
import { sendOnce, type Agents } from '@/lib/net/send';
import { INVITATION_TTL_MS, invitationToken } from '@/lib/teams/invitation-token';
import { digestEmail, invitationEmail, notificationEmail, slackPayload, type EmailMessage } from './compose';
import { clientReportEmail } from './client-report-email';
import { sendSmtpEmail } from './mailer';
import { openSlackUrl } from './slack-url';

export type NotificationSenderOptions = {
  /** The sender's clock for claims, leases, retries and the digest day (tests drive it). */
  now?: () => Date;
  batchSize?: number;
  leaseMs?: number;
  timeoutMs?: number;
  budgetMs?: number;
  encryptionKey?: string;
  /** smtp(s):// URL; null: store emails for the Outbox page. Default: SMTP_URL. */
  smtpUrl?: string | null;
  origin?: string;
  /** Only these sends (the "send test" button). */
  sendIds?: string[];
  /** Pools with their own outbound guard (tests); default: the guarded pools of lib/net/send.ts. */
  agents?: Agents;
};

export type NotificationPassSummary = {
  bundled: number;
  claimed: number;
  sent: number;
  retrying: number;
  givenUp: number;
  fenced: number;
};

const DEFAULTS = { batchSize: 50, leaseMs: 60_000, timeoutMs: 10_000, budgetMs: 20_000 };

/** `final`: not worth a retry (an invitation revoked or used before its email went out). */
type Outcome = { ok: true; stored?: boolean } | { ok: false; error: string; final?: boolean };

/**
 * One sender pass: bundle yesterday's digests, then the leased outbox (lib/jobs/leased-outbox.ts), safe with any
 * number of concurrent senders: claim due sends, re-check the lease, send each once, record the outcome fenced by
 * the claim's generation. Two senders never hold one send's lease at once; a failure is retried with the backoff.
 */
export async function deliverDueNotifications(
  db: Database,
  options: NotificationSenderOptions = {},
): Promise<NotificationPassSummary> {
  const now = options.now ?? (() => new Date());
  let bundled = 0;
  if (!options.sendIds) {
    const today = now().toISOString().slice(0, 10);
    bundled = await db.transaction((tx) => bundleDailyDigests(tx, { today, now: now() }));
  }
  const pass = await runLeasedOutbox(notificationOutbox(db, options), {
    now,
    batchSize: options.batchSize ?? DEFAULTS.batchSize,
    leaseMs: options.leaseMs ?? DEFAULTS.leaseMs,
    budgetMs: options.budgetMs ?? DEFAULTS.budgetMs,
    ids: options.sendIds,
  });
  const { claimed, succeeded: sent, retrying, givenUp, fenced } = pass;
  return { bundled, claimed, sent, retrying, givenUp, fenced };
}

/** The notification sends as a leased outbox: their queries (db/queries/notification-sends.ts) and the sends. */
function notificationOutbox(
  db: Database,
  options: NotificationSenderOptions,
): LeasedOutbox<ClaimedNotificationSend, { error: string | null }> {
  return {
    claim: ({ ids, ...claim }) => claimDueNotificationSends(db, { ...claim, sendIds: ids }),
    idOf: (send) => send.id,
    retryWindowFrom: (send) => new Date(send.createdAt),
    leaseHeld: (lease) => notificationLeaseHeld(db, lease),
    send: async (send) => {
      const outcome = await sendOne(db, send, options);
      if (outcome.ok)
        return outcome.stored === undefined ? { ok: true, outcome: { error: null } } : { recorded: outcome.stored };
      return { ok: false, outcome: { error: outcome.error }, final: outcome.final };
    },
    record: ({ row, ok, outcome, nextAttemptAt }) =>
      recordNotificationSend(db, { id: row.id, generation: row.generation, ok, error: outcome.error, nextAttemptAt }),
    logFailure: (send, outcome) =>
      logger.warn({ sendId: send.id, channel: send.channel, error: outcome.error }, 'notification send failed'),
  };
}

/** One send, once; never throws (a failure is an outcome) and never retries by itself. */
async function sendOne(
  db: Database,
  send: ClaimedNotificationSend,
  options: NotificationSenderOptions,
): Promise<Outcome> {
  try {
    if (send.channel === 'slack') return await postToSlack(send, options);
    const origin = options.origin ?? getEnv().NEXTAUTH_URL?.replace(/\/$/, '');
    if (send.invitationId) return await sendInvitation(db, send, origin, options);
    if (send.clientReportId) return await deliverEmail(db, send, await clientReportEmail(db, send, origin), options);
    const message =
      send.channel === 'email_digest'
        ? digestEmail(send, await listDigestItems(db, { digestSendId: send.id }), origin)
        : notificationEmail(send, origin);
    return await deliverEmail(db, send, message, options);
  } catch (error) {
    // Stored (last_error) and logged: an SMTP error names the recipient, which no log line or row keeps.
    return { ok: false, error: maskPersonalText(error instanceof Error ? error.message : String(error)) };
  }
}

/** The link is rebuilt from the server key and the invitation's current version: the database holds only its hash. */
async function sendInvitation(
  db: Database,
  send: ClaimedNotificationSend,
  origin: string | undefined,
  options: NotificationSenderOptions,
): Promise<Outcome> {
  if (!send.invitationOpen) return { ok: false, error: 'The invitation was used, revoked or expired.', final: true };
  const token = invitationToken(
    send.invitationId!,
    send.invitationVersion!,
    options.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY,
  );
  const days = Math.round(INVITATION_TTL_MS / 86_400_000);
  return deliverEmail(db, send, invitationEmail(send, `${origin ?? ''}/invite/${token}`, days), options);
}

async function deliverEmail(
  db: Database,
  send: ClaimedNotificationSend,
  message: EmailMessage,
  options: NotificationSenderOptions,
): Promise<Outcome> {
  if (!send.toAddress) return { ok: false, error: 'The member has no email address.' };
  const smtpUrl = options.smtpUrl === undefined ? (getEnv().SMTP_URL ?? null) : options.smtpUrl;
  if (!smtpUrl) {
    const attached = (message.attachments ?? []).map((a) => `\n[Attached: ${a.filename}, ${a.content.length} bytes]`);
    const stored = await storeOutboxEmail(db, {
      sendId: send.id,
      generation: send.generation,
      workspaceId: send.workspaceId,
      userId: send.userId,
      toAddress: message.to,
      subject: message.subject,
      body: message.text + attached.join(''),
    });
    return { ok: true, stored };
  }
  await sendSmtpEmail(smtpUrl, message);
  return { ok: true };
}

/** One POST to the workspace's incoming webhook through the outbound guard; never retried here. */
async function postToSlack(send: ClaimedNotificationSend, options: NotificationSenderOptions): Promise<Outcome> {
  if (!send.slackUrlSealed) return { ok: false, error: 'The workspace has no Slack webhook any more.' };
  const url = openSlackUrl(send.slackUrlSealed, options.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY, send.workspaceId);
  const raw = await sendOnce(
    {
      method: 'POST',
      url,
      headers: { 'user-agent': 'Semel-Notifications/1' },
      bytes: { data: Buffer.from(JSON.stringify(slackPayload(send))), contentType: 'application/json' },
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    },
    options.agents,
  );
  if (raw.type === 'response')
    return raw.status >= 200 && raw.status < 300
      ? { ok: true }
      : { ok: false, error: `Slack answered HTTP ${raw.status}` };
  if (raw.type === 'body-error') return { ok: false, error: raw.message };
  // Never the URL in the error: it is the secret.
  return { ok: false, error: raw.timedOut ? 'Timed out' : raw.code || 'Network error' };
}

import type { Database } from '@/db/client';
import {
  claimDueWebhookMessages,
  recordWebhookAttempt,
  webhookLeaseHeld,
  type ClaimedWebhookMessage,
  type WebhookAttemptOutcome,
} from '@/db/queries/webhooks';
import { getEnv } from '@/lib/env';
import { runLeasedOutbox, type LeasedOutbox, type OutboxPassSummary } from '@/lib/jobs/leased-outbox';
import { logger } from '@/lib/logging/logger';
import { sendOnce, type Agents } from '@/lib/net/send';
import { RESPONSE_EXCERPT_CHARS, WEBHOOK_DEFAULTS } from './config';
import { webhookPayload } from './payload';
import { openWebhookSecret } from './secret';
import { signWebhook } from './sign';

export type WebhookSenderOptions = {
  /** The sender's clock for claims, leases and the retry schedule (tests drive it; default: the real time). */
  now?: () => Date;
  batchSize?: number;
  leaseMs?: number;
  timeoutMs?: number;
  budgetMs?: number;
  encryptionKey?: string;
  /** Only these messages (the "send test event" and "redeliver" buttons send theirs at once). */
  messageIds?: string[];
  /** Connection pools with their own outbound guard (tests); default: the guarded pools of lib/net/send.ts. */
  agents?: Agents;
};

export type WebhookPassSummary = OutboxPassSummary;

/**
 * One sender pass of the leased outbox (lib/jobs/leased-outbox.ts), safe with any number of concurrent senders:
 * claim due messages, re-check the lease, POST each once, record the outcome fenced by the claim's generation. A
 * sender that dies mid-call leaves its lease to run out; the message is then sent again with the same webhook-id.
 */
export async function deliverDueWebhooks(
  db: Database,
  options: WebhookSenderOptions = {},
): Promise<WebhookPassSummary> {
  return runLeasedOutbox(webhookOutbox(db, options), {
    now: options.now ?? (() => new Date()),
    batchSize: options.batchSize ?? WEBHOOK_DEFAULTS.batchSize,
    leaseMs: options.leaseMs ?? WEBHOOK_DEFAULTS.leaseMs,
    budgetMs: options.budgetMs ?? WEBHOOK_DEFAULTS.budgetMs,
    ids: options.messageIds,
  });
}

/** The webhook messages as a leased outbox: their queries (db/queries/webhooks.ts) and the signed POST. */
export function webhookOutbox(
  db: Database,
  options: WebhookSenderOptions = {},
): LeasedOutbox<ClaimedWebhookMessage, WebhookAttemptOutcome> {
  return {
    claim: ({ ids, ...claim }) => claimDueWebhookMessages(db, { ...claim, messageIds: ids }),
    idOf: (message) => message.messageId,
    retryWindowFrom: (message) => new Date(message.eventCreatedAt),
    leaseHeld: ({ id, ...lease }) => webhookLeaseHeld(db, { messageId: id, ...lease }),
    send: async (message) => {
      const outcome = await sendWebhookMessage(message, options);
      return { ok: outcome.ok, outcome };
    },
    record: ({ row, outcome, nextAttemptAt }) =>
      recordWebhookAttempt(db, { messageId: row.messageId, generation: row.generation, outcome, nextAttemptAt }),
    logFailure: (message, outcome) =>
      logger.warn(
        { messageId: message.messageId, endpointId: message.endpointId, statusCode: outcome.statusCode },
        'webhook attempt failed',
      ),
  };
}

/**
 * One signed POST of a claimed message through the outbound guard, with a whole-call timeout; never throws and
 * never retries by itself. Exported for tests that play a sender dying between the call and its record.
 */
export async function sendWebhookMessage(
  message: ClaimedWebhookMessage,
  options: Pick<WebhookSenderOptions, 'timeoutMs' | 'encryptionKey' | 'agents'> = {},
): Promise<WebhookAttemptOutcome> {
  const startedAt = new Date();
  const body = JSON.stringify(webhookPayload(message));
  const secret = openWebhookSecret(
    message.secretSealed,
    options.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY,
    message.endpointId,
  );
  const raw = await sendOnce(
    {
      method: 'POST',
      url: message.url,
      headers: { ...signWebhook(secret, message.eventId, startedAt, body), 'user-agent': 'Semel-Webhooks/1' },
      bytes: { data: Buffer.from(body), contentType: 'application/json' },
      timeoutMs: options.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs,
    },
    options.agents,
  );
  const latencyMs = Date.now() - startedAt.getTime();
  if (raw.type === 'response') {
    const ok = raw.status >= 200 && raw.status < 300;
    return {
      startedAt,
      ok,
      statusCode: raw.status,
      latencyMs,
      error: ok ? null : `HTTP ${raw.status}`,
      responseExcerpt: raw.bodyText.slice(0, RESPONSE_EXCERPT_CHARS) || null,
    };
  }
  if (raw.type === 'body-error')
    return { startedAt, ok: false, statusCode: raw.status, latencyMs, error: raw.message, responseExcerpt: null };
  const error = raw.timedOut ? 'Timed out' : raw.message || raw.code || 'Network error';
  return { startedAt, ok: false, statusCode: null, latencyMs, error: error.slice(0, 300), responseExcerpt: null };
}

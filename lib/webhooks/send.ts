import type { Database } from '@/db/client';
import {
  claimDueWebhookMessages,
  recordWebhookAttempt,
  type ClaimedWebhookMessage,
  type WebhookAttemptOutcome,
} from '@/db/queries/webhooks';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { sendOnce, type Agents } from '@/lib/providers/http';
import { nextRetryAt } from './backoff';
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
  /** Connection pools with their own outbound guard (tests); default: the guarded pools of lib/providers/http.ts. */
  agents?: Agents;
};

export type WebhookPassSummary = {
  claimed: number;
  succeeded: number;
  retrying: number;
  givenUp: number;
  fenced: number;
};

/**
 * One sender pass, safe with any number of concurrent senders: claim due messages (SKIP LOCKED, a lease, a new
 * generation), POST each once, record the outcome fenced by that generation. A sender that dies mid-call leaves
 * its lease to run out; the message is then claimed again and sent with the same webhook-id (at least once).
 */
export async function deliverDueWebhooks(
  db: Database,
  options: WebhookSenderOptions = {},
): Promise<WebhookPassSummary> {
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? WEBHOOK_DEFAULTS.batchSize;
  const budgetMs = options.budgetMs ?? WEBHOOK_DEFAULTS.budgetMs;
  const summary: WebhookPassSummary = { claimed: 0, succeeded: 0, retrying: 0, givenUp: 0, fenced: 0 };
  const started = Date.now();
  while (Date.now() - started < budgetMs) {
    const batch = await claimDueWebhookMessages(db, {
      now: now(),
      limit: batchSize,
      leaseMs: options.leaseMs ?? WEBHOOK_DEFAULTS.leaseMs,
      messageIds: options.messageIds,
    });
    if (batch.length === 0) break;
    summary.claimed += batch.length;
    await Promise.all(
      batch.map(async (message) => {
        const outcome = await sendWebhookMessage(message, options);
        const failures = message.attempts + 1;
        const retryAt = outcome.ok ? null : nextRetryAt(failures, now(), new Date(message.eventCreatedAt));
        const recorded = await recordWebhookAttempt(db, {
          messageId: message.messageId,
          generation: message.generation,
          outcome,
          nextAttemptAt: retryAt,
        });
        if (!recorded) summary.fenced += 1;
        else if (outcome.ok) summary.succeeded += 1;
        else if (retryAt) summary.retrying += 1;
        else summary.givenUp += 1;
        if (!outcome.ok)
          logger.warn(
            { messageId: message.messageId, endpointId: message.endpointId, statusCode: outcome.statusCode },
            'webhook attempt failed',
          );
      }),
    );
    if (options.messageIds) break;
  }
  return summary;
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

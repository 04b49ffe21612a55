import type { ClaimedWebhookMessage } from '@/db/queries/webhooks';

export type WebhookPayload = {
  /** The event id, also sent as `webhook-id`: the same on every retry, so receivers deduplicate on it. */
  id: string;
  type: string;
  /** When the event happened (ISO 8601), not when this attempt was sent. */
  timestamp: string;
  /** What it is about (`delivery:<id>`, `post:<id>`). */
  subject: string;
  /** Grows by one per event of the same subject: a late retry with a lower number is older news. */
  sequence: number;
  data: Record<string, unknown>;
};

/** The body of every attempt of one event (no secrets or tokens: only the ids, states and links in `data`). */
export function webhookPayload(
  message: Pick<ClaimedWebhookMessage, 'eventId' | 'type' | 'eventCreatedAt' | 'subject' | 'sequence' | 'data'>,
): WebhookPayload {
  return {
    id: message.eventId,
    type: message.type,
    timestamp: new Date(message.eventCreatedAt).toISOString(),
    subject: message.subject,
    sequence: message.sequence,
    data: message.data,
  };
}

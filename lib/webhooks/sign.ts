import { Webhook } from 'standardwebhooks';

export type WebhookHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

/** The Standard Webhooks headers for one attempt: the id is the event's (the same on every retry), the time is now. */
export function signWebhook(secret: string, eventId: string, sentAt: Date, body: string): WebhookHeaders {
  const seconds = Math.floor(sentAt.getTime() / 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': new Webhook(secret).sign(eventId, new Date(seconds * 1000), body),
  };
}

import type { WebhookEventType } from '@/db/schema';

/** What each event means (Settings → Webhooks); no runtime imports, so client components can use it. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'delivery.sent': 'A delivery is live on its network',
  'delivery.failed': 'A delivery was refused by its network',
  'delivery.ambiguous': 'A delivery’s outcome is unknown and being verified',
  'delivery.needs_review': 'A delivery needs an admin’s decision',
  'delivery.missed': 'A delivery was not sent: it was too late',
  'delivery.duplicate_detected': 'A late copy of a sent delivery appeared: it is back in review with both copies',
  'post.approved': 'A post was approved',
  'post.rejected': 'A post was rejected',
  'inbox.received': 'A reply, comment, mention or message came in',
  'inbox.answered': 'An inbox item was answered: its reply is live, or the account answered it elsewhere',
  'metrics.updated': 'New metrics were read for sent posts (one event per metrics run)',
};

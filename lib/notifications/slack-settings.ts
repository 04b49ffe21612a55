import type { Executor } from '@/db/client';
import { upsertSlackWebhook } from '@/db/queries/notification-settings';
import type { AllowList } from '@/lib/net/outbound-guard';
import { webhookUrlRefusal, type HostResolver } from '@/lib/webhooks/url';
import { sealSlackUrl } from './slack-url';

/**
 * Stores a workspace's Slack incoming-webhook URL, sealed, once the outbound guard accepts it (public addresses
 * only unless OUTBOUND_ALLOWED_HOSTS names the host); the sender checks again at every connection.
 */
export async function saveSlackWebhook(
  db: Executor,
  params: { workspaceId: string; url: string; userId: string | null; encryptionKey: string },
  options: { allow?: AllowList; resolve?: HostResolver } = {},
): Promise<{ kind: 'saved'; host: string } | { kind: 'refused'; message: string }> {
  const refusal = await webhookUrlRefusal(params.url, options);
  if (refusal) return { kind: 'refused', message: refusal.replace('webhooks are', 'Slack messages are') };
  const host = new URL(params.url).host;
  await upsertSlackWebhook(db, {
    workspaceId: params.workspaceId,
    urlSealed: sealSlackUrl(params.url, params.encryptionKey, params.workspaceId),
    host,
    createdByUserId: params.userId,
  });
  return { kind: 'saved', host };
}

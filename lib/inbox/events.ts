import type { Database, Executor } from '@/db/client';
import { settleInboxAnswers } from '@/db/queries/inbox/answers';
import type { ClaimedInboxStream } from '@/db/queries/inbox/cursors';
import type { StoredInboxItem } from '@/db/queries/inbox/items';
import { insertInboxNotification } from '@/db/queries/inbox/notifications';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { emitWebhookEvent } from '@/lib/webhooks/emit';

// What the inbox tells people and integrations (docs/inbox.md#notifications, docs/webhooks.md): written in the
// transaction of the change it reports, so it exists exactly when the change does.

const EXCERPT = 80;
const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text);

/** New items of one page: one notification for those still to answer, one `inbox.received` event each. */
export async function announceNewItems(tx: Executor, claim: ClaimedInboxStream, items: StoredInboxItem[]) {
  const open = items.filter((i) => !i.answered);
  if (open.length > 0) {
    const first = open[0]!;
    const label = PROVIDER_META[claim.provider].label;
    const count = open.length === 1 ? 'A new message' : `${open.length} new messages`;
    await insertInboxNotification(tx, {
      workspaceId: claim.workspaceId,
      accountId: claim.accountId,
      firstItemId: first.id,
      message: `${count} for ${claim.handle} on ${label}: ${first.authorName ?? first.authorHandle} wrote “${excerpt(first.text)}”`,
    });
  }
  for (const item of items)
    await emitWebhookEvent(tx, {
      workspaceId: claim.workspaceId,
      type: 'inbox.received',
      subject: `inbox_item:${item.id}`,
      data: {
        itemId: item.id,
        accountId: claim.accountId,
        network: claim.provider,
        kind: item.kind,
        platformId: item.platformId,
        author: { handle: item.authorHandle, name: item.authorName },
        text: item.text,
        url: item.url,
        receivedAt: item.receivedAt,
        deliveryId: item.deliveryId,
        answered: item.answered,
      },
    });
}

/** Items the account answered on the platform itself (another app): `inbox.answered` with `source: "platform"`. */
export async function announceAnsweredElsewhere(
  tx: Executor,
  claim: ClaimedInboxStream,
  items: { id: string; workspaceId: string; platformAnswerId: string }[],
) {
  for (const item of items)
    await emitWebhookEvent(tx, {
      workspaceId: item.workspaceId,
      type: 'inbox.answered',
      subject: `inbox_item:${item.id}`,
      data: {
        itemId: item.id,
        accountId: claim.accountId,
        network: claim.provider,
        source: 'platform',
        platformId: item.platformAnswerId,
      },
    });
}

/**
 * Answers whose reply ended since the last run, each once: a sent one is announced (`inbox.answered`, with the
 * reply's link); a failed one leaves its item unanswered again where no other answer is live. Returns how many.
 */
export async function settleAnswers(db: Database): Promise<number> {
  let settled = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await settleInboxAnswers(tx, { limit: 200 });
      for (const a of rows.filter((r) => r.outcome === 'sent'))
        await emitWebhookEvent(tx, {
          workspaceId: a.workspaceId,
          type: 'inbox.answered',
          subject: `inbox_item:${a.itemId}`,
          data: {
            itemId: a.itemId,
            accountId: a.accountId,
            network: a.provider,
            source: 'semel',
            answer: { id: a.id, number: a.number, by: a.actorName, text: a.text },
            deliveryId: a.deliveryId,
            platformId: a.externalId,
            url: a.externalUrl,
          },
        });
      return rows.length;
    });
    settled += batch;
    if (batch < 200) return settled;
  }
}

import { randomUUID } from 'node:crypto';
import type { Executor } from '@/db/client';
import { insertInboxItems, type NewInboxItem } from '@/db/queries/inbox/items';
import type { ProviderName } from '@/db/schema';

/** One inbound item stored as the inbox job would store it (a stranger's reply to `inReplyTo`, by default). */
export async function storeInboxItem(
  db: Executor,
  params: {
    workspaceId: string;
    accountId: string;
    provider?: ProviderName;
    stream?: string;
    item?: Partial<NewInboxItem>;
  },
) {
  const [stored] = await insertInboxItems(db, {
    workspaceId: params.workspaceId,
    accountId: params.accountId,
    provider: params.provider ?? 'x',
    stream: params.stream ?? 'mentions',
    items: [
      {
        platformId: String(BigInt(Date.now()) * 4_194_304n + BigInt(Math.floor(Math.random() * 4_000_000))),
        kind: 'mention',
        authorPlatformId: '1234567890',
        authorHandle: '@ana_rivera',
        authorName: 'Ana Rivera',
        text: `Where is my order? ${randomUUID().slice(0, 6)}`,
        url: null,
        media: [],
        inReplyTo: null,
        conversationId: null,
        receivedAt: new Date(),
        ...params.item,
      },
    ],
  });
  return stored!;
}

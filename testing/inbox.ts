import { randomUUID } from 'node:crypto';
import type { Executor } from '@/db/client';
import { insertInboxItems, type NewInboxItem } from '@/db/queries/inbox/items';
import type { ProviderName } from '@/db/schema';
import type { InboxJobOptions } from '@/lib/inbox/read-inbox';
import { TEST_ENCRYPTION_KEY } from './keys';

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

/** Inbox job options for tests: every stream due again at once, the sandbox unlimited, only the given accounts. */
export function testInboxOptions(origin: string, overrides: Partial<InboxJobOptions> = {}): InboxJobOptions {
  return {
    workerId: `inbox-${randomUUID().slice(0, 8)}`,
    batchSize: 50,
    leaseMs: 30_000,
    readTimeoutMs: 5_000,
    intervalMs: 0,
    maxPages: 10,
    backfillMs: 3 * 24 * 3_600_000,
    postsWindowMs: 14 * 24 * 3_600_000,
    budgetMs: 20_000,
    readBudget: { rateLimits: {}, reservedShare: 0.5 },
    encryptionKey: TEST_ENCRYPTION_KEY,
    origin,
    ...overrides,
  };
}

import { randomUUID } from 'node:crypto';
import type { Executor } from '@/db/client';
import {
  deliveries,
  idempotencyKeys,
  posts,
  socialAccounts,
  users,
  workspaces,
  type NewSocialAccount,
} from '@/db/schema';
import type { ProviderName } from '@/db/schema';

/** Minimal rows for tests; each call makes new, unique ones. */
export async function makeWorkspace(db: Executor, slug = `ws-${randomUUID().slice(0, 8)}`) {
  const [row] = await db.insert(workspaces).values({ slug, name: slug }).returning();
  return row!;
}

export async function makeUser(db: Executor, email = `u-${randomUUID().slice(0, 8)}@test.test`) {
  const [row] = await db.insert(users).values({ email, name: email }).returning();
  return row!;
}

/** The third argument is a provider name, or overrides (provider, handle, baseUrl). */
export async function makeAccount(
  db: Executor,
  workspaceId: string,
  providerOrOverrides:
    ProviderName | Partial<Pick<NewSocialAccount, 'provider' | 'handle' | 'baseUrl' | 'sandbox'>> = {},
) {
  const overrides = typeof providerOrOverrides === 'string' ? { provider: providerOrOverrides } : providerOrOverrides;
  const provider = overrides.provider ?? 'x';
  const [row] = await db
    .insert(socialAccounts)
    .values({
      workspaceId,
      provider,
      sandbox: true,
      handle: '@t',
      platformUserId: randomUUID(),
      baseUrl: `/api/sandbox/${provider}`,
      credentialsEncrypted: 'v1.x.x.x',
      tokenLast4: 'abcd',
      ...overrides,
    })
    .returning();
  return row!;
}

export async function makePost(db: Executor, workspaceId: string, idempotencyKey: string | null = randomUUID()) {
  const [row] = await db
    .insert(posts)
    .values({ workspaceId, text: 'hello', scheduledAt: new Date(), source: 'api', idempotencyKey })
    .returning();
  return row!;
}

export async function makeDelivery(
  db: Executor,
  params: { workspaceId: string; postId: string; accountId: string; part?: number },
) {
  const [row] = await db
    .insert(deliveries)
    .values({ ...params, dueAt: new Date() })
    .returning();
  return row!;
}

/** An idempotency key whose retention has already run out (what the pruning job deletes). */
export async function makeExpiredIdempotencyKey(db: Executor, workspaceId: string) {
  await db.insert(idempotencyKeys).values({
    workspaceId,
    operation: 'posts.create',
    key: 'k',
    fingerprint: 'f',
    state: 'completed',
    expiresAt: new Date(Date.now() - 1_000),
  });
}

import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createProviderClient } from '@/lib/providers';
import { createMemorySandboxStore } from './memory-store';
import { startSandboxServer } from '@/sandbox/http/node-server';
import { NO_FAULTS } from './types';

// The standalone server without a database keeps the same platform rules.
const store = createMemorySandboxStore();
const server = await startSandboxServer({ deps: { store, resolveScope: async () => [], hangMs: 2_000 } });
afterAll(() => server.close());

async function connect(platform: 'x' | 'mastodon') {
  const platformUserId = String(Math.floor(Math.random() * 1e12));
  const token = randomUUID();
  const account = await store.registerAccount({ platform, platformUserId, handle: `@m${platformUserId}`, token });
  return {
    account,
    client: createProviderClient(
      { provider: platform, baseUrl: `/api/sandbox/${platform}`, platformUserId, accessToken: token },
      { origin: server.url },
    ),
  };
}

describe('in-memory sandbox', () => {
  it('X: duplicate content within 24 h is refused', async () => {
    const { client } = await connect('x');
    expect((await client.publish({ text: 'same', kind: 'post', idempotencyKey: randomUUID() })).outcome).toBe('sent');
    expect((await client.publish({ text: 'same', kind: 'post', idempotencyKey: randomUUID() })).rule).toBe(
      'x-duplicate-content',
    );
  });

  it('Mastodon: parallel requests with one key make one status', async () => {
    const { account, client } = await connect('mastodon');
    const idempotencyKey = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.publish({ text: 'once', kind: 'post', idempotencyKey })),
    );
    expect(new Set(results.map((r) => r.externalId)).size).toBe(1);
    expect((await store.countPosts([account.id])).get(account.id)).toBe(1);
  });

  it('timeout after commit: ambiguous and one copy', async () => {
    const { account, client } = await connect('mastodon');
    await store.setFaults([account.id], { ...NO_FAULTS, timeoutAfterCommit: 1 });
    const result = await client.publish({ text: 'late', kind: 'post', idempotencyKey: randomUUID(), timeoutMs: 300 });
    expect(result.outcome).toBe('ambiguous');
    expect((await store.countPosts([account.id])).get(account.id)).toBe(1);
  });

  it('X: the (indexed) duplicate check refuses identical live text among many posts, and forgets deleted ones', async () => {
    const { account, client } = await connect('x');
    for (let i = 0; i < 2_000; i++) await store.createPost({ account, kind: 'post', text: `bulk ${i}` });
    for (let i = 0; i < 200; i++)
      expect(
        await store.insertPost({ account, kind: 'post', text: `bulk ${i}`, refuseDuplicateSince: new Date(0) }),
      ).toBeNull();
    expect((await store.countPosts([account.id])).get(account.id)).toBe(2_000);
    const [first] = await store.listAllPosts(account.id);
    expect((await store.deletePost(account.id, first!.id)).status).toBe('deleted');
    expect(
      await store.insertPost({ account, kind: 'post', text: first!.text, refuseDuplicateSince: new Date(0) }),
    ).toMatchObject({ text: first!.text });
    expect((await client.publish({ text: 'bulk 7', kind: 'post', idempotencyKey: randomUUID() })).rule).toBe(
      'x-duplicate-content',
    );
  });
});

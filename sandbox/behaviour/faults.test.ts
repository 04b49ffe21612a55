import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProviderReadError } from '@/lib/providers/types';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';

// processingMs, readLagMs and listingUnavailable, through the real provider clients over HTTP, on both stores.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox() },
  { name: 'memory store', start: () => startMemoryTestSandbox() },
];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await pause(50);
  }
  return Date.now();
}

describe.each(backends)('new faults ($name)', async ({ start }) => {
  const sandbox = await start();

  it.each(['x', 'mastodon'] as const)(
    'processingMs (%s): a client that times out does not stop the creation; it lands after processingMs',
    async (platform) => {
      const a = await sandbox.connectAccount(platform);
      await sandbox.setFaults(a.sandboxAccount.id, { processingMs: 900, profile: 'plain' });
      const text = sandbox.uniqueText('slow');
      const sentAt = Date.now();
      const result = await a.client.publish({ text, kind: 'post', idempotencyKey: randomUUID(), timeoutMs: 250 });
      expect(result.outcome).toBe('ambiguous');
      expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(0); // the client gave up; nothing yet
      const landedAt = await waitFor(async () => (await sandbox.copiesOfText(a.sandboxAccount.id, text)) === 1, 3_000);
      expect(landedAt - sentAt).toBeGreaterThanOrEqual(850);
      const [post] = (await sandbox.allPosts(a.sandboxAccount.id)).filter((p) => p.text === text);
      expect(post!.createdAt.getTime() - sentAt).toBeGreaterThanOrEqual(850);
    },
  );

  it('processingShare 0: processingMs is set but no write is slow', async () => {
    const a = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(a.sandboxAccount.id, { processingMs: 5_000, processingShare: 0 });
    const result = await a.client.publish({
      text: sandbox.uniqueText('fast'),
      kind: 'post',
      idempotencyKey: randomUUID(),
      timeoutMs: 1_000,
    });
    expect(result.outcome).toBe('sent');
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it.each(['x', 'mastodon'] as const)(
    'readLagMs (%s): a new post is missing from listings, readable by id, then listed once the lag passes',
    async (platform) => {
      const a = await sandbox.connectAccount(platform);
      await sandbox.setFaults(a.sandboxAccount.id, { readLagMs: 1_200 });
      const text = sandbox.uniqueText('lag');
      const since = new Date(Date.now() - 2_000);
      const result = await a.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() });
      expect(result.outcome).toBe('sent');
      expect((await a.client.listRecent({ since })).map((p) => p.text)).not.toContain(text);
      const byId =
        platform === 'x'
          ? `${sandbox.url}/api/sandbox/x/2/tweets/${result.externalId}`
          : `${sandbox.url}/api/sandbox/mastodon/api/v1/statuses/${result.externalId}`;
      const one = await fetch(byId, { headers: { authorization: `Bearer ${a.token}` } });
      expect(JSON.stringify(await one.json())).toContain(result.externalId!);
      const listedAt = await waitFor(
        async () => (await a.client.listRecent({ since })).some((p) => p.text === text),
        3_000,
      );
      const [post] = (await sandbox.allPosts(a.sandboxAccount.id)).filter((p) => p.text === text);
      expect(listedAt - post!.createdAt.getTime()).toBeGreaterThanOrEqual(1_150);
    },
  );

  it.each([
    ['x', { title: 'Service Unavailable', status: 503 }],
    ['mastodon', { error: 'There was a temporary problem serving your request, please try again' }],
  ] as const)(
    'listingUnavailable (%s): listings fail with the platform’s 503; writes still work',
    async (platform, shape) => {
      const a = await sandbox.connectAccount(platform);
      await sandbox.setFaults(a.sandboxAccount.id, { listingUnavailable: 1 });
      expect(
        (await a.client.publish({ text: sandbox.uniqueText('w'), kind: 'post', idempotencyKey: randomUUID() })).outcome,
      ).toBe('sent');
      const error = await a.client.listRecent({ since: new Date(0) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderReadError);
      expect((error as ProviderReadError).classification.httpStatus).toBe(503);
      const listing =
        platform === 'x'
          ? `${sandbox.url}/api/sandbox/x/2/users/${a.platformUserId}/tweets`
          : `${sandbox.url}/api/sandbox/mastodon/api/v1/accounts/${a.platformUserId}/statuses`;
      const res = await fetch(listing, { headers: { authorization: `Bearer ${a.token}` } });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject(shape);
      await sandbox.setFaults(a.sandboxAccount.id, {});
      expect(await a.client.listRecent({ since: new Date(0) })).toHaveLength(1);
    },
  );
});

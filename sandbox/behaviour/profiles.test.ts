import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import type { Platform, Profile } from '@/sandbox/store/types';

// Each profile's weakness or strength, shown with real concurrent HTTP requests, on both stores.
// A zero-duplicates figure elsewhere must come from our guards, never from the sandbox absorbing a resend.

const LOCK_WAIT_MS = 600;
const backends = [
  { name: 'Postgres store', start: () => startTestSandbox({ lockWaitMs: LOCK_WAIT_MS }) },
  { name: 'memory store', start: () => startMemoryTestSandbox({ lockWaitMs: LOCK_WAIT_MS }) },
];

type Sandbox = Awaited<ReturnType<(typeof backends)[number]['start']>>;

/** One raw write as the platform's wire format has it; resolves with status, body and when the answer came. */
async function write(sandbox: Sandbox, platform: Platform, token: string, text: string, key?: string) {
  const url =
    platform === 'x' ? `${sandbox.url}/api/sandbox/x/2/tweets` : `${sandbox.url}/api/sandbox/mastodon/api/v1/statuses`;
  const body = platform === 'x' ? { text } : { status: text };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  const id = platform === 'x' ? (json.data as { id?: string } | undefined)?.id : (json.id as string | undefined);
  return { status: res.status, json, id, answeredAt: Date.now() };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends)('platform profiles ($name)', async ({ start }) => {
  const sandbox = await start();

  async function account(platform: Platform, profile: Profile, faults: { processingMs?: number } = {}) {
    const a = await sandbox.connectAccount(platform);
    await sandbox.setFaults(a.sandboxAccount.id, { profile, ...faults });
    return a;
  }

  it('mastodon-modern: a same-key request in flight waits for the lock, then gets the original status (1 copy)', async () => {
    const a = await account('mastodon', 'mastodon-modern', { processingMs: 400 });
    const text = sandbox.uniqueText('modern');
    const key = randomUUID();
    const first = write(sandbox, 'mastodon', a.token, text, key);
    await pause(100); // the first is still being processed
    const second = await write(sandbox, 'mastodon', a.token, text, key);
    const original = await first;
    expect(original).toMatchObject({ status: 200 });
    expect(second).toMatchObject({ status: 200, id: original.id });
    // The second was answered only after the first had created the status: it waited on the lock.
    expect(second.answeredAt).toBeGreaterThanOrEqual(original.answeredAt - 5);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(1);
  });

  it('mastodon-modern: past the lock wait the concurrent request gets Mastodon’s 503, and still only 1 copy is made', async () => {
    const a = await account('mastodon', 'mastodon-modern', { processingMs: LOCK_WAIT_MS + 900 });
    const text = sandbox.uniqueText('modern-busy');
    const key = randomUUID();
    const first = write(sandbox, 'mastodon', a.token, text, key);
    await pause(100);
    const second = await write(sandbox, 'mastodon', a.token, text, key);
    expect(second).toMatchObject({
      status: 503,
      json: { error: 'There was a temporary problem serving your request, please try again' },
    });
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(0); // the first is still being processed
    const original = await first;
    expect(original.status).toBe(200);
    const third = await write(sandbox, 'mastodon', a.token, text, key);
    expect(third).toMatchObject({ status: 200, id: original.id });
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(1);
  });

  it('mastodon-legacy: the key is checked at the start and stored after the create, so a resend in flight makes a 2nd copy', async () => {
    const a = await account('mastodon', 'mastodon-legacy', { processingMs: 500 });
    const text = sandbox.uniqueText('legacy');
    const key = randomUUID();
    const [first, second] = await Promise.all([
      write(sandbox, 'mastodon', a.token, text, key),
      pause(100).then(() => write(sandbox, 'mastodon', a.token, text, key)),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.id).not.toBe(first.id);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
    // Once a request has finished, the key does work: a later resend gets the (last) stored status.
    const later = await write(sandbox, 'mastodon', a.token, text, key);
    expect([first.id, second.id]).toContain(later.id);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
  });

  it('mastodon-legacy (Hollo): the same key with a changed body gets the earlier status, 200, no 422', async () => {
    const a = await account('mastodon', 'mastodon-legacy');
    const text = sandbox.uniqueText('legacy-body');
    const key = randomUUID();
    const first = await write(sandbox, 'mastodon', a.token, text, key);
    const changed = await write(sandbox, 'mastodon', a.token, `${text} (edited)`, key);
    expect(first.status).toBe(200);
    expect(changed).toMatchObject({ status: 200, id: first.id });
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, `${text} (edited)`)).toBe(0);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(1);
  });

  it('mastodon-legacy (Hollo): no lock — eight concurrent requests with one key make several statuses', async () => {
    const a = await account('mastodon', 'mastodon-legacy', { processingMs: 300 });
    const text = sandbox.uniqueText('legacy-eight');
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => pause(i * 10).then(() => write(sandbox, 'mastodon', a.token, text, key))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.id)).size).toBeGreaterThan(1);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBeGreaterThan(1);
  });

  it('mastodon-legacy (Hollo): a deleted status’s key makes a new status (not 404)', async () => {
    const a = await account('mastodon', 'mastodon-legacy');
    const text = sandbox.uniqueText('legacy-deleted');
    const key = randomUUID();
    const first = await write(sandbox, 'mastodon', a.token, text, key);
    const del = await fetch(`${sandbox.url}/api/sandbox/mastodon/api/v1/statuses/${first.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(del.status).toBe(200);
    const again = await write(sandbox, 'mastodon', a.token, text, key);
    expect(again.status).toBe(200);
    expect(again.id).not.toBe(first.id);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(1);
    expect((await sandbox.allPosts(a.sandboxAccount.id)).filter((p) => p.text === text)).toHaveLength(2);
  });

  it('mastodon-nokey: the key is ignored, every resend is a new copy', async () => {
    const a = await account('mastodon', 'mastodon-nokey');
    const text = sandbox.uniqueText('nokey');
    const key = randomUUID();
    const first = await write(sandbox, 'mastodon', a.token, text, key);
    const second = await write(sandbox, 'mastodon', a.token, text, key);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.id).not.toBe(first.id);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
  });

  it('x: identical text is refused with X’s 403, even for two requests in flight at once', async () => {
    const a = await account('x', 'x', { processingMs: 200 });
    const text = sandbox.uniqueText('x');
    const results = await Promise.all([write(sandbox, 'x', a.token, text), write(sandbox, 'x', a.token, text)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
    expect(results.find((r) => r.status === 403)!.json).toMatchObject({
      detail: 'You are not allowed to create a Tweet with duplicate content.',
    });
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(1);
  });

  it('x-nodedupe: identical text is accepted twice', async () => {
    const a = await account('x', 'x-nodedupe');
    const text = sandbox.uniqueText('nodedupe');
    const results = await Promise.all([write(sandbox, 'x', a.token, text), write(sandbox, 'x', a.token, text)]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
  });

  it.each(['x', 'mastodon'] as const)(
    'plain (%s wire format): no key, no dedupe — two requests, two copies',
    async (platform) => {
      const a = await account(platform, 'plain', { processingMs: 200 });
      const text = sandbox.uniqueText(`plain-${platform}`);
      const key = randomUUID();
      const results = await Promise.all([
        write(sandbox, platform, a.token, text, key),
        pause(50).then(() => write(sandbox, platform, a.token, text, key)),
      ]);
      expect(results.every((r) => r.status === (platform === 'x' ? 201 : 200))).toBe(true);
      expect(results[0]!.id).not.toBe(results[1]!.id);
      expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
    },
  );

  it('mastodon-modern: a replay of a deleted status is Mastodon’s 404 (statuses.find), never a new copy', async () => {
    const a = await account('mastodon', 'mastodon-modern');
    const text = sandbox.uniqueText('replay-deleted');
    const key = randomUUID();
    const first = await write(sandbox, 'mastodon', a.token, text, key);
    const del = await fetch(`${sandbox.url}/api/sandbox/mastodon/api/v1/statuses/${first.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(del.status).toBe(200);
    const again = await write(sandbox, 'mastodon', a.token, text, key);
    expect(again).toMatchObject({ status: 404, json: { error: 'Record not found' } });
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(0);
  });
});

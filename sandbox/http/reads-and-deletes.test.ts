import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxServer } from './node-server';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import type { Platform } from '@/sandbox/store/types';

// Reads need the account's own token and show only its own posts (docs/sandbox.md#reads-and-deletes); ids are not
// guessable; deletes are the author's only and soft; both stores alike.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox() },
  { name: 'memory store', start: () => startMemoryTestSandbox() },
];

const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

describe.each(backends)('sandbox reads and deletes ($name)', async ({ start }) => {
  const sandbox = await start();
  const x = `${sandbox.url}/api/sandbox/x`;
  const m = `${sandbox.url}/api/sandbox/mastodon`;

  async function publish(platform: Platform, token: string, text: string): Promise<string> {
    const res =
      platform === 'x'
        ? await fetch(`${x}/2/tweets`, {
            method: 'POST',
            headers: { ...auth(token), 'content-type': 'application/json' },
            body: JSON.stringify({ text }),
          })
        : await fetch(`${m}/api/v1/statuses`, {
            method: 'POST',
            headers: { ...auth(token), 'content-type': 'application/json' },
            body: JSON.stringify({ status: text }),
          });
    const body = await res.json();
    return platform === 'x' ? body.data.id : body.id;
  }

  it('X: a tweet and a user timeline need a token (401) and show only the token’s own posts', async () => {
    const [owner, other] = [await sandbox.connectAccount('x'), await sandbox.connectAccount('x')];
    const id = await publish('x', owner.token, sandbox.uniqueText('mine'));
    expect((await fetch(`${x}/2/tweets/${id}`)).status).toBe(401);
    expect((await fetch(`${x}/2/tweets/${id}`, { headers: auth('sbx_wrong') })).status).toBe(401);
    expect(await (await fetch(`${x}/2/tweets/${id}`, { headers: auth(other.token) })).json()).toMatchObject({
      errors: [{ title: 'Not Found Error' }],
    });
    expect(await (await fetch(`${x}/2/tweets/${id}`, { headers: auth(owner.token) })).json()).toMatchObject({
      data: { id },
    });
    const timeline = `${x}/2/users/${owner.platformUserId}/tweets`;
    expect((await fetch(timeline)).status).toBe(401);
    expect(await (await fetch(timeline, { headers: auth(other.token) })).json()).toEqual({ meta: { result_count: 0 } });
    expect(await (await fetch(timeline, { headers: auth(owner.token) })).json()).toMatchObject({
      data: [{ id }],
      meta: { result_count: 1 },
    });
  });

  it('Mastodon: a status and an account’s statuses need a token (401) and show only the token’s own posts', async () => {
    const [owner, other] = [await sandbox.connectAccount('mastodon'), await sandbox.connectAccount('mastodon')];
    const id = await publish('mastodon', owner.token, sandbox.uniqueText('mine'));
    expect((await fetch(`${m}/api/v1/statuses/${id}`)).status).toBe(401);
    expect((await fetch(`${m}/api/v1/statuses/${id}`, { headers: auth(other.token) })).status).toBe(404);
    expect(await (await fetch(`${m}/api/v1/statuses/${id}`, { headers: auth(owner.token) })).json()).toMatchObject({
      id,
    });
    const listing = `${m}/api/v1/accounts/${owner.platformUserId}/statuses`;
    expect((await fetch(listing)).status).toBe(401);
    expect(await (await fetch(listing, { headers: auth(other.token) })).json()).toEqual([]);
    expect(await (await fetch(listing, { headers: auth(owner.token) })).json()).toMatchObject([{ id }]);
  });

  it('post ids are numeric, ordered by time, and not sequential', async () => {
    const a = await sandbox.connectAccount('mastodon');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await publish('mastodon', a.token, sandbox.uniqueText(`id ${i}`)));
    expect(ids.every((id) => /^\d{15,19}$/.test(id))).toBe(true);
    const values = ids.map(BigInt);
    for (let i = 1; i < values.length; i++) {
      expect(values[i]! > values[i - 1]!).toBe(true);
      expect(values[i]! - values[i - 1]!).toBeGreaterThan(1n);
    }
    // The low bits are random: not one shared step between consecutive ids.
    expect(new Set(values.slice(1).map((v, i) => String(v - values[i]!))).size).toBeGreaterThan(1);
  });

  it('X DELETE: the author deletes (deleted: true), again answers deleted: false; others get 403; deleted posts leave reads and counts', async () => {
    const [owner, other] = [await sandbox.connectAccount('x'), await sandbox.connectAccount('x')];
    const text = sandbox.uniqueText('to delete');
    const id = await publish('x', owner.token, text);
    const foreign = await fetch(`${x}/2/tweets/${id}`, { method: 'DELETE', headers: auth(other.token) });
    expect(foreign.status).toBe(403);
    expect(await sandbox.copiesOfText(owner.sandboxAccount.id, text)).toBe(1);
    expect((await fetch(`${x}/2/tweets/${id}`, { method: 'DELETE' })).status).toBe(401);
    // Two deletes at once: exactly one of them deleted it.
    const both = await Promise.all(
      [1, 2].map(() =>
        fetch(`${x}/2/tweets/${id}`, { method: 'DELETE', headers: auth(owner.token) }).then((r) => r.json()),
      ),
    );
    expect(both.map((b) => b.data.deleted).sort()).toEqual([false, true]);
    expect(await sandbox.copiesOfText(owner.sandboxAccount.id, text)).toBe(0);
    expect(await sandbox.copies(owner.sandboxAccount.id)).toBe(0);
    expect(await (await fetch(`${x}/2/tweets/${id}`, { headers: auth(owner.token) })).json()).toMatchObject({
      errors: [{ title: 'Not Found Error' }],
    });
    expect(
      await (await fetch(`${x}/2/users/${owner.platformUserId}/tweets`, { headers: auth(owner.token) })).json(),
    ).toEqual({ meta: { result_count: 0 } });
    const kept = await sandbox.allPosts(owner.sandboxAccount.id);
    expect(kept).toMatchObject([{ id, text, deletedAt: expect.any(Date) }]);
    // X's duplicate rule looks at live posts: the same text may be posted again after the delete.
    expect(
      (
        await fetch(`${x}/2/tweets`, {
          method: 'POST',
          headers: { ...auth(owner.token), 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        })
      ).status,
    ).toBe(201);
  });

  it('Mastodon DELETE: the author gets the deleted status (with its text); again → 404; another account → 404 and nothing deleted', async () => {
    const [owner, other] = [await sandbox.connectAccount('mastodon'), await sandbox.connectAccount('mastodon')];
    const text = sandbox.uniqueText('to delete');
    const id = await publish('mastodon', owner.token, text);
    const foreign = await fetch(`${m}/api/v1/statuses/${id}`, { method: 'DELETE', headers: auth(other.token) });
    expect(foreign.status).toBe(404);
    expect(await sandbox.copiesOfText(owner.sandboxAccount.id, text)).toBe(1);
    const deleted = await fetch(`${m}/api/v1/statuses/${id}`, { method: 'DELETE', headers: auth(owner.token) });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ id, text });
    const again = await fetch(`${m}/api/v1/statuses/${id}`, { method: 'DELETE', headers: auth(owner.token) });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: 'Record not found' });
    expect((await fetch(`${m}/api/v1/statuses/${id}`, { headers: auth(owner.token) })).status).toBe(404);
    expect(
      await (
        await fetch(`${m}/api/v1/accounts/${owner.platformUserId}/statuses`, { headers: auth(owner.token) })
      ).json(),
    ).toEqual([]);
    expect(await sandbox.copies(owner.sandboxAccount.id)).toBe(0);
    expect(await sandbox.allPosts(owner.sandboxAccount.id)).toMatchObject([{ id, deletedAt: expect.any(Date) }]);
  });
});

describe('"View post" links inside the app (a signed-in member, no bearer token)', async () => {
  const sandbox = await startMemoryTestSandbox();
  const member = await sandbox.connectAccount('x');
  const outsider = await sandbox.connectAccount('mastodon');
  // The app's viewerScope reads the session; here a header stands in for "signed in as a member of member's workspace".
  const server = await startSandboxServer({
    deps: {
      store: sandbox.store,
      resolveScope: async () => [],
      viewerScope: async (request) =>
        request.headers.get('x-test-session') === 'member'
          ? [{ accountId: randomUUID(), handle: '@m', disconnected: false, account: member.sandboxAccount }]
          : null,
    },
  });
  afterAll(() => server.close());

  it('open for the account’s workspace members, 401 when signed out, not found for another workspace’s post', async () => {
    const tweet = await member.client.publish({
      text: sandbox.uniqueText('link'),
      kind: 'post',
      idempotencyKey: randomUUID(),
    });
    const status = await outsider.client.publish({
      text: sandbox.uniqueText('link'),
      kind: 'post',
      idempotencyKey: randomUUID(),
    });
    const session = { 'x-test-session': 'member' };
    expect(
      await (await fetch(`${server.url}/api/sandbox/x/2/tweets/${tweet.externalId}`, { headers: session })).json(),
    ).toMatchObject({ data: { id: tweet.externalId } });
    expect((await fetch(`${server.url}/api/sandbox/x/2/tweets/${tweet.externalId}`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/api/sandbox/mastodon/api/v1/statuses/${status.externalId}`, { headers: session }))
        .status,
    ).toBe(404);
    expect((await fetch(`${server.url}/api/sandbox/mastodon/api/v1/statuses/${status.externalId}`)).status).toBe(401);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { threadsMeta } from '@/lib/providers/threads/meta';
import { startSandboxServer } from '@/sandbox/http/node-server';
import { handleSandboxRequest } from '@/sandbox/http/router';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';

// The Threads dialect on the wire (raw HTTP, as any client would call it), on both stores: a container is
// published at most once (a compare-and-set), the 24 h quotas hold under concurrency, and the reads only
// show the token's own posts.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox() },
  { name: 'memory store', start: () => startMemoryTestSandbox() },
];

describe.each(backends)('Threads sandbox dialect ($name)', async ({ start }) => {
  const sandbox = await start();
  const api = `${sandbox.url}/api/sandbox/threads/v1.0`;

  async function call(token: string, method: 'GET' | 'POST' | 'DELETE', path: string) {
    const res = await fetch(`${api}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  const container = async (token: string, text: string) =>
    (await call(token, 'POST', `/me/threads?media_type=TEXT&text=${encodeURIComponent(text)}`)).body.id as string;
  const publish = (token: string, id: string) => call(token, 'POST', `/me/threads_publish?creation_id=${id}`);

  it('a container: FINISHED → threads_publish → PUBLISHED; a second publish is refused, still one post', async () => {
    const account = await sandbox.connectAccount('threads');
    expect((await sandbox.store.getFaults(account.sandboxAccount.id)).profile).toBe('threads');
    const id = await container(account.token, 'once');
    expect(await call(account.token, 'GET', `/${id}?fields=status,error_message`)).toEqual({
      status: 200,
      body: { status: 'FINISHED', id },
    });
    const first = await publish(account.token, id);
    expect(first.status).toBe(200);
    expect(first.body.id).toMatch(/^\d+$/);
    expect((await call(account.token, 'GET', `/${id}?fields=status`)).body).toEqual({ status: 'PUBLISHED', id });
    const again = await publish(account.token, id);
    expect(again).toMatchObject({ status: 400, body: { error: { code: 100, type: 'THApiException' } } });
    expect(again.body.error.message).toContain('already been published');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    // A post's media id has no status: only containers do.
    expect(await call(account.token, 'GET', `/${first.body.id}?fields=status`)).toMatchObject({
      status: 400,
      body: { error: { code: 100, message: expect.stringContaining('nonexisting field (status)') } },
    });
  });

  it('permalinks are on the origin the caller used (its Host header), not on the URL the server framework reports', async () => {
    const account = await sandbox.connectAccount('threads');
    const { body } = await publish(account.token, await container(account.token, 'linked'));
    const request = new Request(`http://localhost:1/api/sandbox/threads/v1.0/${body.id}?fields=permalink`, {
      headers: { authorization: `Bearer ${account.token}`, host: '127.0.0.1:3206' },
    });
    const answer = await handleSandboxRequest(request, { store: sandbox.store, resolveScope: async () => [] });
    expect(await answer.json()).toEqual({
      id: body.id,
      permalink: `http://127.0.0.1:3206/api/sandbox/threads/v1.0/${body.id}?fields=id,text,timestamp,permalink,username`,
    });
  });

  it('the `plain` profile publishes a published container again: a second post (weaker than Threads)', async () => {
    const account = await sandbox.connectAccount('threads');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'plain' });
    const id = await container(account.token, 'twice');
    expect((await publish(account.token, id)).status).toBe(200);
    expect((await publish(account.token, id)).status).toBe(200);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, 'twice')).toBe(2);
  });

  it('race: 10 parallel threads_publish of one container → one 200, nine refusals, one post', async () => {
    const account = await sandbox.connectAccount('threads');
    const id = await container(account.token, 'race');
    const results = await Promise.all(Array.from({ length: 10 }, () => publish(account.token, id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 400);
    expect(refused).toHaveLength(9);
    expect(refused.every((r) => /already been published/.test(r.body.error.message))).toBe(true);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('race at the quota: with 249 posts in 24 h, two containers published at once → one 200, one code 4', async () => {
    const account = await sandbox.connectAccount('threads');
    for (let i = 0; i < 249; i++)
      await sandbox.store.createPost({ account: account.sandboxAccount, kind: 'post', text: `seed ${i}` });
    const [a, b] = [await container(account.token, 'a'), await container(account.token, 'b')];
    const results = await Promise.all([publish(account.token, a), publish(account.token, b)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.error).toMatchObject({ code: 4, is_transient: true });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(250);
    expect((await call(account.token, 'GET', '/me/threads_publishing_limit')).body.data[0]).toMatchObject({
      quota_usage: 250,
      config: { quota_total: 250, quota_duration: 86_400 },
    });
  });

  it('another account’s container cannot be read or published (Graph 100/33; 24/4279009)', async () => {
    const [owner, other] = [await sandbox.connectAccount('threads'), await sandbox.connectAccount('threads')];
    const id = await container(owner.token, 'mine');
    expect(await call(other.token, 'GET', `/${id}?fields=status`)).toMatchObject({
      status: 400,
      body: { error: { code: 100, error_subcode: 33 } },
    });
    expect(await publish(other.token, id)).toMatchObject({
      status: 400,
      body: { error: { code: 24, error_subcode: 4279009 } },
    });
    expect(await call(other.token, 'POST', `/${owner.platformUserId}/threads?media_type=TEXT&text=hi`)).toMatchObject({
      status: 400,
      body: { error: { code: 100, error_subcode: 33 } },
    });
    expect(await sandbox.copies(owner.sandboxAccount.id)).toBe(0);
  });

  it('listings: /threads shows top-level posts, /replies the replies; an access_token parameter works too', async () => {
    const account = await sandbox.connectAccount('threads');
    const root = (await publish(account.token, await container(account.token, 'root'))).body.id as string;
    const replyContainer = (
      await call(account.token, 'POST', `/me/threads?media_type=TEXT&text=answer&reply_to_id=${root}`)
    ).body.id as string;
    const reply = (await publish(account.token, replyContainer)).body.id as string;
    const list = async (edge: string) =>
      (await (await fetch(`${api}/me/${edge}?fields=id,text,replied_to&access_token=${account.token}`)).json()) as {
        data: { id: string }[];
      };
    expect((await list('threads')).data).toEqual([{ id: root, text: 'root' }]);
    expect((await list('replies')).data).toEqual([{ id: reply, text: 'answer', replied_to: { id: root } }]);
    expect((await fetch(`${api}/me/threads?access_token=sbx_wrong`)).status).toBe(400);
  });

  it('refresh_access_token: the long-lived token is renewed for 60 days; a wrong grant type is refused', async () => {
    const account = await sandbox.connectAccount('threads');
    const refresh = (grant: string) =>
      fetch(
        `${sandbox.url}/api/sandbox/threads/refresh_access_token?grant_type=${grant}&access_token=${account.token}`,
      );
    const renewed = (await (await refresh('th_refresh_token')).json()) as { access_token: string };
    expect(renewed).toMatchObject({ token_type: 'bearer', expires_in: 60 * 86_400 });
    expect(renewed.access_token).not.toBe(account.token);
    expect(await sandbox.store.authenticate('threads', renewed.access_token)).toMatchObject({
      id: account.sandboxAccount.id,
    });
    expect((await refresh('client_credentials')).status).toBe(400);
    // The code exchange's short-lived token is swapped the same way (th_exchange_token), and only that way.
    const exchange = (grant: string) =>
      fetch(`${sandbox.url}/api/sandbox/threads/access_token?grant_type=${grant}&access_token=${account.token}`);
    expect(await (await exchange('th_exchange_token')).json()).toMatchObject({ expires_in: 60 * 86_400 });
    expect((await exchange('th_refresh_token')).status).toBe(400);
  });
});

describe('Threads "View post" links inside the app (a signed-in member, no bearer token)', async () => {
  const sandbox = await startMemoryTestSandbox();
  const [member, outsider] = [await sandbox.connectAccount('threads'), await sandbox.connectAccount('threads')];
  // The app's viewerScope reads the session; a header stands in for "signed in as a member of member's workspace".
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

  it('the meta’s sandboxPostPath opens the post for members; signed out or another workspace’s post → refused', async () => {
    const mine = await member.client.publish({ text: 'linked', kind: 'post', idempotencyKey: randomUUID() });
    const theirs = await outsider.client.publish({ text: 'other', kind: 'post', idempotencyKey: randomUUID() });
    const session = { 'x-test-session': 'member' };
    const open = (id: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${threadsMeta.sandboxPostPath(id)}`, { headers });
    expect(await (await open(mine.externalId!, session)).json()).toMatchObject({
      id: mine.externalId,
      text: 'linked',
      username: member.sandboxAccount.handle.slice(1),
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
    });
    expect((await open(mine.externalId!)).status).toBe(400);
    expect(await (await open(theirs.externalId!, session)).json()).toMatchObject({
      error: { code: 100, error_subcode: 33 },
    });
  });
});

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getAccountWithCredentials, upsertAccount } from '@/db/queries/accounts';
import { makeWorkspace } from '@/testing/db/factories';
import { providerClientForAccount } from '@/lib/providers';
import { linkedinMeta } from '@/lib/providers/linkedin/meta';
import { sealCredentials } from '@/lib/providers/credentials';
import { connectSandboxAccount } from '@/lib/sandbox/connect';
import { LINKEDIN_DUPLICATE_WINDOW_MS } from '@/sandbox/behaviour/profiles';
import { handleSandboxRequest } from '@/sandbox/http/router';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';
import type { ScopedAccount } from '@/sandbox/store/types';
import { registerProductSandboxAccounts } from '@/lib/sandbox/workspace-scope';

// The sandbox's LinkedIn dialect on the wire (raw HTTP, no client), on both stores: LinkedIn's duplicate
// refusal, its headers and errors, and who a member token may act as.

const VERSION = '202607';
const backends = [
  { name: 'Postgres store', start: () => startTestSandbox() },
  { name: 'memory store', start: () => startMemoryTestSandbox() },
];
type Sandbox = Awaited<ReturnType<(typeof backends)[number]['start']>>;

function call(sandbox: Sandbox, token: string, path: string, init: RequestInit & { version?: string | null } = {}) {
  const { version = VERSION, ...rest } = init;
  return fetch(`${sandbox.url}/api/sandbox/linkedin${path}`, {
    ...rest,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-restli-protocol-version': '2.0.0',
      ...(version ? { 'linkedin-version': version } : {}),
      ...rest.headers,
    },
  });
}

async function create(sandbox: Sandbox, token: string, author: string, commentary: string) {
  const res = await call(sandbox, token, '/rest/posts', {
    method: 'POST',
    body: JSON.stringify({
      author,
      commentary,
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    }),
  });
  const text = await res.text();
  return { status: res.status, urn: res.headers.get('x-restli-id'), body: text ? JSON.parse(text) : null };
}

describe.each(backends)('LinkedIn duplicate refusal ($name)', async ({ start }) => {
  const sandbox = await start();

  it('identical commentary by one author → 422 DUPLICATE_POST naming the first post, even for requests in flight at once', async () => {
    const a = await sandbox.connectAccount('linkedin');
    await sandbox.setFaults(a.sandboxAccount.id, { processingMs: 200 });
    const text = sandbox.uniqueText('same');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => create(sandbox, a.token, a.platformUserId, text)),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    expect(created[0]!.urn).toMatch(/^urn:li:share:\d{19}$/);
    for (const refused of results.filter((r) => r.status === 422))
      expect(refused.body).toEqual({
        errorDetailType: 'com.linkedin.common.error.BadRequest',
        message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${created[0]!.urn}`,
        errorDetails: {
          inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }],
        },
        status: 422,
      });
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(1);
  });

  it('a deleted post still causes the refusal, and its URN then answers 404 (a ghost)', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const text = sandbox.uniqueText('ghost');
    const first = await create(sandbox, a.token, a.platformUserId, text);
    const path = `/rest/posts/${encodeURIComponent(first.urn!)}`;
    expect((await call(sandbox, a.token, path)).status).toBe(200);
    const deleted = await call(sandbox, a.token, path, { method: 'DELETE', headers: { 'x-restli-method': 'DELETE' } });
    expect(deleted.status).toBe(204);
    expect((await call(sandbox, a.token, path, { method: 'DELETE' })).status).toBe(404);
    const again = await create(sandbox, a.token, a.platformUserId, text);
    expect(again.status).toBe(422);
    expect(again.body.message).toContain(first.urn);
    expect(await call(sandbox, a.token, path).then((r) => r.status)).toBe(404);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(0);
  });

  it('profile plain: no refusal on LinkedIn', async () => {
    const a = await sandbox.connectAccount('linkedin');
    await sandbox.setFaults(a.sandboxAccount.id, { profile: 'plain' });
    const text = sandbox.uniqueText('plain');
    const results = await Promise.all([1, 2].map(() => create(sandbox, a.token, a.platformUserId, text)));
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
  });
});

describe('LinkedIn dialect on the wire', async () => {
  const sandbox = await startTestSandbox();

  it('the refusal lasts one hour, no longer (a longer one would absorb resends LinkedIn may publish)', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const text = sandbox.uniqueText('window');
    const first = await create(sandbox, a.token, a.platformUserId, text);
    const id = first.urn!.split(':').at(-1)!;
    const aged = `${LINKEDIN_DUPLICATE_WINDOW_MS + 1_000} milliseconds`;
    await sandbox.db.execute(
      sql`update sandbox.posts set created_at = created_at - ${aged}::interval where id = ${id}::bigint`,
    );
    expect((await create(sandbox, a.token, a.platformUserId, text)).status).toBe(201);
  });

  it('versioned calls need LinkedIn-Version: missing → 400, unknown or future → 426', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const missing = await call(sandbox, a.token, '/rest/organizationAcls?q=roleAssignee', { version: null });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'VERSION_MISSING' });
    for (const version of ['202113', '202001', '209901', 'latest']) {
      const res = await call(sandbox, a.token, '/rest/organizationAcls?q=roleAssignee', { version });
      expect(res.status).toBe(426);
      expect(await res.json()).toMatchObject({ code: 'NONEXISTENT_VERSION' });
    }
  });

  it('401 for a wrong token; 422 naming every missing field; 403 posting as a page one does not administer', async () => {
    const [a, b] = [await sandbox.connectAccount('linkedin'), await sandbox.connectAccount('linkedin')];
    expect((await call(sandbox, 'wrong', '/v2/userinfo')).status).toBe(401);
    const empty = await call(sandbox, a.token, '/rest/posts', { method: 'POST', body: JSON.stringify({}) });
    expect(empty.status).toBe(422);
    const { message } = (await empty.json()) as { message: string };
    for (const field of ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState'])
      expect(message).toContain(`ERROR :: /${field} :: field is required but not found and has no default value`);
    const foreign = await create(sandbox, a.token, b.platformUserId, 'not my page');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('unescaped reserved characters: created (201), but cut off at the first one, as LinkedIn does', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const unique = sandbox.uniqueText('cut');
    const result = await create(sandbox, a.token, a.platformUserId, `${unique} before (after`);
    expect(result.status).toBe(201);
    const [stored] = await sandbox.allPosts(a.sandboxAccount.id);
    expect(stored!.text).toBe(`${unique} before `);
  });

  it('a member’s own posts are neither listed nor read (r_member_social is not granted); a page’s are', async () => {
    const person = await sandbox.connectAccount('linkedin', undefined, { linkedinAuthor: 'person' });
    const mine = await create(sandbox, person.token, person.platformUserId, sandbox.uniqueText('member'));
    expect(mine.status).toBe(201);
    const author = encodeURIComponent(person.platformUserId);
    expect((await call(sandbox, person.token, `/rest/posts?q=author&author=${author}`)).status).toBe(403);
    expect((await call(sandbox, person.token, `/rest/posts/${encodeURIComponent(mine.urn!)}`)).status).toBe(403);
    const acls = await call(sandbox, person.token, '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR');
    expect(await acls.json()).toMatchObject({ elements: [] });
  });

  it('the finder pages with start/count and a next link', async () => {
    const a = await sandbox.connectAccount('linkedin');
    for (let i = 0; i < 5; i++) await create(sandbox, a.token, a.platformUserId, sandbox.uniqueText(`page ${i}`));
    const author = encodeURIComponent(a.platformUserId);
    const first = await call(sandbox, a.token, `/rest/posts?q=author&author=${author}&count=3&sortBy=LAST_MODIFIED`);
    const body = (await first.json()) as { elements: unknown[]; paging: { links: { rel: string; href: string }[] } };
    expect(body.elements).toHaveLength(3);
    expect(body.paging.links[0]).toMatchObject({ rel: 'next' });
    expect(body.paging.links[0]!.href).toContain('start=3');
    const second = await call(sandbox, a.token, `/rest/posts?q=author&author=${author}&count=3&start=3`);
    expect(((await second.json()) as { elements: unknown[]; paging: { links: unknown[] } }).elements).toHaveLength(2);
    expect((await call(sandbox, a.token, `/rest/posts?q=author&author=${author}&count=101`)).status).toBe(400);
  });
});

describe('LinkedIn sandbox accounts in the app', async () => {
  const sandbox = await startTestSandbox();
  const { db } = sandbox;

  it('one click connects an organization page, whose administrator holds the token; it publishes and lists', async () => {
    const workspace = await makeWorkspace(db);
    const account = await connectSandboxAccount(db, {
      workspaceId: workspace.id,
      provider: 'linkedin',
      encryptionKey: TEST_ENCRYPTION_KEY,
    });
    expect(account.platformUserId).toMatch(/^urn:li:organization:\d+$/);
    const stored = await getAccountWithCredentials(db, { workspaceId: workspace.id, accountId: account.id });
    const client = providerClientForAccount(stored!, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    const me = await client.whoAmI();
    expect(me).toMatchObject({ ok: true, id: expect.stringMatching(/^urn:li:person:sbx\d+$/) });
    const text = sandbox.uniqueText('one click');
    const sent = await client.publish({ text, kind: 'post', idempotencyKey: account.id });
    expect(sent.outcome).toBe('sent');
    const listed = await client.listRecent({ since: new Date(Date.now() - 60_000) });
    expect(listed.map((p) => p.id)).toEqual([sent.externalId]);
    expect((await client.listIdentities!()).map((i) => i.platformUserId)).toEqual([
      (me as { id: string }).id,
      account.platformUserId,
    ]);
  });

  it('a page stored before the sandbox knew it (a seed) is registered with its administrator on first use', async () => {
    const workspace = await makeWorkspace(db);
    const { platformUserId: digits, token } = newSandboxIdentity();
    const platformUserId = `urn:li:organization:${digits}`;
    const product = await upsertAccount(db, {
      workspaceId: workspace.id,
      provider: 'linkedin',
      sandbox: true,
      handle: 'Seeded Page',
      platformUserId,
      baseUrl: '/api/sandbox/linkedin',
      ...sealCredentials({ accessToken: token }, TEST_ENCRYPTION_KEY),
    });
    await registerProductSandboxAccounts(db, TEST_ENCRYPTION_KEY);
    const member = await sandbox.store.authenticate('linkedin', token);
    expect(member!.platformUserId).toBe(`urn:li:person:sbx${digits}`);
    expect(await sandbox.store.getAccount('linkedin', platformUserId)).toMatchObject({ handle: 'Seeded Page' });
    const stored = await getAccountWithCredentials(db, { workspaceId: workspace.id, accountId: product!.id });
    const client = providerClientForAccount(stored!, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect((await client.publish({ text: 'seeded', kind: 'post', idempotencyKey: product!.id })).outcome).toBe('sent');
  });

  it('the timeline’s "View post" link opens for a signed-in member of the workspace, without a token', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const text = sandbox.uniqueText('view (me)');
    const { urn } = await create(sandbox, a.token, a.platformUserId, text.replace(/[()]/g, '\\$&'));
    const path = linkedinMeta.sandboxPostPath(urn!.split(':').at(-1)!);
    expect(path).toBe(`/api/sandbox/linkedin/rest/posts/${encodeURIComponent(urn!)}`);
    const scope: ScopedAccount[] = [
      {
        accountId: a.productAccountId,
        handle: a.sandboxAccount.handle,
        disconnected: false,
        account: a.sandboxAccount,
      },
    ];
    const view = (viewer: ScopedAccount[] | null) =>
      handleSandboxRequest(new Request(`http://app.test${path}`), {
        store: sandbox.store,
        resolveScope: async () => [],
        viewerScope: async () => viewer,
      });
    const seen = await view(scope);
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({
      id: urn,
      author: a.platformUserId,
      commentary: text.replace(/[()]/g, '\\$&'),
    });
    expect((await view([])).status).toBe(404);
    expect((await view(null)).status).toBe(401);
  });
});

describe.each(backends)('LinkedIn comments ($name)', async ({ start }) => {
  const sandbox = await start();
  const comment = (token: string, urn: string, body: Record<string, unknown>) =>
    call(sandbox, token, `/rest/socialActions/${encodeURIComponent(urn)}/comments`, {
      method: 'POST',
      body: JSON.stringify(body),
    });

  it('no idempotency and no duplicate refusal: the same comment twice is two comments, each with its actor and URN', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const { urn } = await create(sandbox, a.token, a.platformUserId, sandbox.uniqueText('commented'));
    const body = { actor: a.platformUserId, object: urn, message: { text: 'Same words' } };
    const [first, second] = [await comment(a.token, urn!, body), await comment(a.token, urn!, body)];
    expect([first.status, second.status]).toEqual([201, 201]);
    const [one, two] = [await first.json(), await second.json()];
    expect(one).toMatchObject({ actor: a.platformUserId, message: { text: 'Same words' } });
    expect(one.commentUrn).toMatch(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
    expect(first.headers.get('x-restli-id')).toBe(one.id);
    expect(one.commentUrn).not.toBe(two.commentUrn);
    // The comment names its thread by the post's activity, another number than the share's.
    expect(one.object).not.toBe(`urn:li:activity:${urn!.split(':').at(-1)}`);
    const listed = await call(sandbox, a.token, `/rest/socialActions/${encodeURIComponent(urn!)}/comments?count=10`);
    expect(listed.status).toBe(200);
    const page = await listed.json();
    expect(page.paging).toMatchObject({ start: 0, count: 10, total: 2 });
    expect(page.elements.map((e: { $URN: string }) => e.$URN).sort()).toEqual([one.$URN, two.$URN].sort());
  });

  it('refused as LinkedIn refuses: another actor (403), another object (422), no text or too long (422), a post not there (404)', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const b = await sandbox.connectAccount('linkedin');
    const { urn } = await create(sandbox, a.token, a.platformUserId, sandbox.uniqueText('refusals'));
    const ok = { actor: a.platformUserId, object: urn, message: { text: 'fine' } };
    expect((await comment(a.token, urn!, { ...ok, actor: b.platformUserId })).status).toBe(403);
    expect((await comment(a.token, urn!, { ...ok, object: 'urn:li:share:1' })).status).toBe(422);
    expect((await comment(a.token, urn!, { ...ok, message: { text: ' ' } })).status).toBe(422);
    expect((await comment(a.token, urn!, { ...ok, message: { text: 'x'.repeat(1_251) } })).status).toBe(422);
    expect((await comment(a.token, 'urn:li:share:1', { ...ok, object: 'urn:li:share:1' })).status).toBe(404);
    expect((await sandbox.store.listAllPosts(a.sandboxAccount.id)).filter((p) => p.kind === 'reply')).toEqual([]);
  });

  it("a member's post: commented as the member, but its comments are not listed to this app (r_member_social)", async () => {
    const person = { linkedinAuthor: 'person' } as const;
    const m = await ('db' in sandbox
      ? sandbox.connectAccount('linkedin', undefined, person)
      : sandbox.connectAccount('linkedin', person));
    expect(m.platformUserId).toMatch(/^urn:li:person:/);
    const { urn } = await create(sandbox, m.token, m.platformUserId, sandbox.uniqueText('member'));
    const made = await comment(m.token, urn!, { actor: m.platformUserId, object: urn, message: { text: 'mine' } });
    expect(made.status).toBe(201);
    const listed = await call(sandbox, m.token, `/rest/socialActions/${encodeURIComponent(urn!)}/comments`);
    expect(listed.status).toBe(403);
  });

  it('a comment is deleted by its actor once (204, then 404), and by no one else', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const b = await sandbox.connectAccount('linkedin');
    const { urn } = await create(sandbox, a.token, a.platformUserId, sandbox.uniqueText('deleted'));
    const made = await (
      await comment(a.token, urn!, { actor: a.platformUserId, object: urn, message: { text: 'gone soon' } })
    ).json();
    const path = (actor: string) =>
      `/rest/socialActions/${encodeURIComponent(made.object)}/comments/${made.id}?actor=${encodeURIComponent(actor)}`;
    expect((await call(sandbox, b.token, path(b.platformUserId), { method: 'DELETE' })).status).toBe(403);
    expect((await call(sandbox, a.token, path(a.platformUserId), { method: 'DELETE' })).status).toBe(204);
    expect((await call(sandbox, a.token, path(a.platformUserId), { method: 'DELETE' })).status).toBe(404);
  });
});

import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeRequestLink } from '@/db/queries/requests';
import { createApiKey } from '@/db/queries/api-keys';
import { approvalDecisions, approvalLinks, auditLog, deliveries, users, type ApiKeyScope } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { makeUser } from '@/testing/db/factories';
import {
  APPROVAL_ADDRESS_RATE_PER_MINUTE,
  APPROVAL_LINK_RATE_PER_MINUTE,
  checkApprovalLink,
  createApprovalLink,
} from '@/lib/approvals/links';
import { decideApproval, type Decider } from '@/lib/approvals/decide';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { createRequestLink } from '@/lib/requests/links';
import { proxy } from '@/proxy';
import { GET as readLink, POST as decideByLink } from '../approve/[token]/route';
import { POST as approve } from './posts/[id]/approve/route';
import { POST as reject } from './posts/[id]/reject/route';
import { PATCH as editPost } from './posts/[id]/route';
import { POST as createPost } from './posts/route';
import { GET as getWorkspace, PATCH as patchWorkspace } from './workspace/route';

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let admin: { token: string };
let writer: { token: string };
beforeAll(async () => {
  tenant = await fixture.tenant();
  admin = await keyWith(['posts:read', 'posts:write', 'posts:approve', 'workspace:write']);
  writer = await keyWith(['posts:read', 'posts:write']);
  const on = await patch(admin.token, { approvalRequired: true });
  expect(on.status).toBe(200);
});

async function keyWith(scopes: ApiKeyScope[], workspaceId = tenant.workspace.id) {
  const key = generateApiKey();
  await createApiKey(db, { workspaceId, name: `key ${scopes.join(' ')}`, prefix: key.prefix, hash: key.hash, scopes });
  return { token: key.token };
}
const patch = (token: string, body: unknown) =>
  patchWorkspace(apiRequest('/api/v1/workspace', { method: 'PATCH', token, body }), noParams);
async function newPost(token = writer.token, accountId = tenant.accounts[0]!.id) {
  const response = await createPost(
    apiRequest('/api/v1/posts', {
      method: 'POST',
      token,
      key: randomUUID(),
      body: {
        text: `approval ${randomUUID()}`,
        accountIds: [accountId],
        scheduledAt: new Date(Date.now() + 3600_000).toISOString(),
      },
    }),
    noParams,
  );
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; status: string };
}
const decide = (route: typeof approve, token: string, id: string, body: unknown = {}) =>
  route(apiRequest(`/api/v1/posts/${id}/x`, { method: 'POST', token, body }), idParams(id));

describe('GET/PATCH /api/v1/workspace { approvalRequired }', () => {
  it('needs workspace:write (403 naming it), refuses a bad body with 422 and changes nothing', async () => {
    const denied = await patch(writer.token, { approvalRequired: false });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ missingScope: 'workspace:write' });
    const bad = await patch(admin.token, { approvalRequired: 'yes' });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect((await bad.json()).errors).toHaveProperty('approvalRequired');
    const read = await getWorkspace(apiRequest('/api/v1/workspace', { token: admin.token }), noParams);
    expect(await read.json()).toEqual({ id: tenant.workspace.id, name: tenant.workspace.name, approvalRequired: true });
  });

  it('audits each change with the API key that made it; setting the value it already has writes nothing', async () => {
    const entries = () =>
      db
        .select()
        .from(auditLog)
        .where(
          sql`${auditLog.workspaceId} = ${tenant.workspace.id} and ${auditLog.action} = 'workspace.approval_required'`,
        )
        .orderBy(auditLog.id);
    expect(await entries()).toHaveLength(1); // beforeAll turned it on
    expect((await patch(admin.token, { approvalRequired: true })).status).toBe(200);
    expect(await entries()).toHaveLength(1);
    expect((await patch(admin.token, { approvalRequired: false })).status).toBe(200);
    expect((await patch(admin.token, { approvalRequired: true })).status).toBe(200);
    const all = await entries();
    expect(all.map((e) => e.detail?.approvalRequired)).toEqual([true, false, true]);
    expect(all.every((e) => e.actorUserId === null && typeof e.detail?.apiKeyId === 'string')).toBe(true);
  });

  it('a new post waits in awaiting_approval and is listed so by the API', async () => {
    expect(await newPost()).toMatchObject({ status: 'awaiting_approval' });
  });
});

describe('POST /api/v1/posts/{id}/approve and /reject', () => {
  it('need posts:approve: 403 without it, nothing recorded', async () => {
    const post = await newPost();
    const denied = await decide(approve, writer.token, post.id);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ missingScope: 'posts:approve' });
    expect(await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, post.id))).toEqual([]);
  });

  it('approve is idempotent: a repeat answers 200 alreadyDecided; rejecting afterwards is a 409 naming who approved', async () => {
    const post = await newPost();
    const first = await decide(approve, admin.token, post.id, { revision: 1 });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ decision: 'approved', revision: 1, alreadyDecided: false });
    const repeat = await decide(approve, admin.token, post.id);
    expect(await repeat.json()).toMatchObject({ decision: 'approved', alreadyDecided: true });
    const rejected = await decide(reject, admin.token, post.id, { comment: 'Too late' });
    expect(rejected.status).toBe(409);
    expect((await rejected.json()).detail).toMatch(/^Already approved by API key “key posts:read/);
    expect(await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, post.id))).toHaveLength(1);
    const [delivery] = await db.select().from(deliveries).where(eq(deliveries.postId, post.id));
    expect(delivery!.status).toBe('scheduled');
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.targetId, post.id));
    expect(audit!.action).toBe('post.approved');
  });

  it('reject needs a comment (422 problem+json, nothing recorded); with one it records changes requested', async () => {
    const post = await newPost();
    const missing = await decide(reject, admin.token, post.id, {});
    expect(missing.status).toBe(422);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect((await missing.json()).errors).toHaveProperty('comment');
    expect(await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, post.id))).toEqual([]);
    const done = await decide(reject, admin.token, post.id, { comment: 'Shorter, please' });
    expect(await done.json()).toMatchObject({ decision: 'changes_requested', comment: 'Shorter, please' });
  });

  it('an edit re-requests approval: the old revision is 409 (edited since), the new one is approved', async () => {
    const post = await newPost();
    await decide(approve, admin.token, post.id);
    const edited = await editPost(
      apiRequest(`/api/v1/posts/${post.id}`, {
        method: 'PATCH',
        token: writer.token,
        key: randomUUID(),
        body: { text: `edited ${randomUUID()}` },
      }),
      idParams(post.id),
    );
    expect(await edited.json()).toMatchObject({ status: 'awaiting_approval' });
    const stale = await decide(approve, admin.token, post.id, { revision: 1 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ currentRevision: 2 });
    expect(await (await decide(approve, admin.token, post.id, { revision: 2 })).json()).toMatchObject({
      revision: 2,
      alreadyDecided: false,
    });
  });

  it("another workspace's post and a malformed id are 404; a body that is not JSON is 400", async () => {
    const other = await fixture.tenant();
    const otherKey = await keyWith(['posts:write'], other.workspace.id);
    const theirs = await newPost(otherKey.token, other.accounts[0]!.id);
    expect((await decide(approve, admin.token, theirs.id)).status).toBe(404);
    expect((await decide(approve, admin.token, 'not-a-uuid')).status).toBe(404);
    const raw = await approve(
      apiRequest(`/api/v1/posts/${theirs.id}/approve`, { method: 'POST', token: admin.token, rawBody: '{' }),
      idParams(theirs.id),
    );
    expect(raw.status).toBe(400);
  });
});

describe('client approval links: /api/approve/<token>', () => {
  const linkParams = (token: string) => ({ params: Promise.resolve({ token }) });
  const read = (token: string) => readLink(new Request(`http://localhost/api/approve/${token}`), linkParams(token));
  const decideWith = (token: string, body: unknown) =>
    decideByLink(
      new Request(`http://localhost/api/approve/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      linkParams(token),
    );
  async function linkFor(postIds: string[]) {
    const user = await makeUser(db);
    return createApprovalLink(db, { workspaceId: tenant.workspace.id, postIds, label: 'test', userId: user.id });
  }

  it('21.11 a client link names deciders only: no member email, no API key name, no internal account id', async () => {
    const [byEmailOnly, byNamed, byKey] = [await newPost(), await newPost(), await newPost()];
    const nameless = await makeUser(db); // its name is its email, as for a member who never set one
    const named = await makeUser(db);
    await db.update(users).set({ name: 'Ada Admin' }).where(eq(users.id, named.id));
    const decide = (postId: string, decider: Decider) =>
      decideApproval(db, { workspaceId: tenant.workspace.id, postId, decision: 'approved', decider });
    await decide(byEmailOnly.id, { kind: 'user', userId: nameless.id, name: nameless.email });
    await decide(byNamed.id, { kind: 'user', userId: named.id, name: 'Ada Admin' });
    const generated = generateApiKey();
    const ciKey = await createApiKey(db, {
      workspaceId: tenant.workspace.id,
      name: 'ci-bot',
      prefix: generated.prefix,
      hash: generated.hash,
    });
    await decide(byKey.id, { kind: 'api_key', apiKeyId: ciKey.id, name: 'API key “ci-bot”' });
    const link = await linkFor([byEmailOnly.id, byNamed.id, byKey.id]);
    const text = await (await read(link.token)).text();
    const body = JSON.parse(text) as { posts: { id: string; decision: { deciderName: string } }[] };
    const nameOf = (id: string) => body.posts.find((p) => p.id === id)!.decision.deciderName;
    expect([nameOf(byEmailOnly.id), nameOf(byNamed.id), nameOf(byKey.id)]).toEqual([
      'Your agency',
      'Ada Admin',
      'Your agency',
    ]);
    expect(text).not.toContain(nameless.email);
    expect(text).not.toContain('ci-bot');
    for (const account of tenant.accounts) expect(text).not.toContain(account.id);
    // "Already approved by …" through the link names the agency, not the member's email.
    const again = await decideWith(link.token, { postId: byEmailOnly.id, decision: 'approved', revision: 1 });
    expect(again.status).toBe(409);
    const answer = await again.text();
    expect(answer).toContain('Your agency');
    expect(answer).not.toContain(nameless.email);
  });

  it('shows only the posts it lists, without a session; the client approves once, a second click is told who did', async () => {
    const [listed, other] = [await newPost(), await newPost()];
    const link = await linkFor([listed.id]);
    const page = await read(link.token);
    expect(page.status).toBe(200);
    const body = (await page.json()) as { posts: { id: string; revision: number; state: string }[] };
    expect(body.posts.map((p) => p.id)).toEqual([listed.id]);
    expect(JSON.stringify(body)).not.toContain(other.id);
    expect(JSON.stringify(body)).not.toContain(tenant.workspace.slug);

    const choice = { postId: listed.id, decision: 'approved', revision: 1, name: 'Carla' };
    const [a, b] = await Promise.all([decideWith(link.token, choice), decideWith(link.token, choice)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect((await loser.json()).detail).toMatch(/^Already approved by Carla \(client link\) at /);
    const [row] = await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, listed.id));
    expect(row).toMatchObject({ approvalLinkId: link.id, decidedByUserId: null });
    // A post the link does not list cannot be decided through it.
    expect((await decideWith(link.token, { ...choice, postId: other.id })).status).toBe(404);
  });

  it('21.9 one answer for an unknown and an altered link (404, same body); revoked 410, expired 410; nothing decided', async () => {
    const post = await newPost();
    const link = await linkFor([post.id]);
    const [id, secret] = link.token.split('.') as [string, string];
    const tampered = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const bodies = new Set<string>();
    for (const token of ['garbage', `${randomUUID()}.${secret}`, tampered]) {
      const response = await read(token);
      expect(response.status, token).toBe(404);
      bodies.add(await response.text());
      const decided = await decideWith(token, { postId: post.id, decision: 'approved', revision: 1 });
      expect(decided.status).toBe(404);
      bodies.add(await decided.text());
    }
    expect(bodies.size).toBe(1); // an unknown id and a wrong secret cannot be told apart
    expect(JSON.parse([...bodies][0]!)).toMatchObject({ title: 'Link not found' });
    await db.update(approvalLinks).set({ revokedAt: new Date() }).where(eq(approvalLinks.id, link.id));
    expect(await (await read(link.token)).json()).toMatchObject({ status: 410, title: 'Link revoked' });
    const fresh = await linkFor([post.id]);
    await db.execute(sql`update approval_links set expires_at = now() - interval '1 second' where id = ${fresh.id}`);
    expect(await (await read(fresh.token)).json()).toMatchObject({ status: 410, title: 'Link expired' });
    expect((await decideWith(fresh.token, { postId: post.id, decision: 'approved', revision: 1 })).status).toBe(410);
    expect(await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, post.id))).toEqual([]);
  });

  it('21.9 the link pages answer their real status through the proxy: 404 (one page) invalid, 410 revoked or expired', async () => {
    const page = (path: string) => proxy(new NextRequest(`http://localhost:3000${path}`));
    const post = await newPost();
    const link = await linkFor([post.id]);
    const [id, secret] = link.token.split('.') as [string, string];
    const tampered = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const unknown = await page(`/approve/${randomUUID()}.${secret}`);
    const altered = await page(`/approve/${tampered}`);
    expect([unknown.status, altered.status]).toEqual([404, 404]);
    expect(await altered.text()).toBe(await unknown.text());
    expect(altered.headers.get('x-frame-options')).toBe('DENY');
    const open = await page(`/approve/${link.token}`);
    expect(open.headers.get('x-middleware-next')).toBe('1'); // the page renders it
    await db.update(approvalLinks).set({ revokedAt: new Date() }).where(eq(approvalLinks.id, link.id));
    const revoked = await page(`/approve/${link.token}`);
    expect(revoked.status).toBe(410);
    expect(await revoked.text()).toContain('Link revoked');
    const fresh = await linkFor([post.id]);
    await db.execute(sql`update approval_links set expires_at = now() - interval '1 second' where id = ${fresh.id}`);
    expect((await page(`/approve/${fresh.token}`)).status).toBe(410);

    const admin = await makeUser(db);
    const request = await createRequestLink(db, { workspaceId: tenant.workspace.id, userId: admin.id, label: 'c' });
    const [rid, rsecret] = request.token.split('.') as [string, string];
    expect((await page(`/request/${rid}.${rsecret.slice(0, -2)}xx`)).status).toBe(404);
    expect((await page(`/request/${request.token}`)).headers.get('x-middleware-next')).toBe('1');
    await revokeRequestLink(db, { workspaceId: tenant.workspace.id, id: request.id });
    expect((await page(`/request/${request.token}`)).status).toBe(410);
  });

  it('request changes through a link needs a comment (422), and is rate-limited per address (429)', async () => {
    const post = await newPost();
    const link = await linkFor([post.id]);
    const noComment = await decideWith(link.token, { postId: post.id, decision: 'changes_requested', revision: 1 });
    expect(noComment.status).toBe(422);
    const responses = [];
    for (let i = 0; i < APPROVAL_ADDRESS_RATE_PER_MINUTE; i++) responses.push((await read(link.token)).status);
    expect(responses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(responses[0]).toBe(200);
  });

  it('21.5 approval links get the per-address window too, counted before the far higher per-link ceiling', async () => {
    const post = await newPost();
    const link = await linkFor([post.id]);
    const held: boolean[] = [];
    for (let i = 0; i < APPROVAL_ADDRESS_RATE_PER_MINUTE + 5; i++)
      held.push((await checkApprovalLink(db, link.token, '198.51.100.20')).ok);
    expect(held.filter(Boolean)).toHaveLength(APPROVAL_ADDRESS_RATE_PER_MINUTE);
    expect((await checkApprovalLink(db, link.token, '198.51.100.21')).ok).toBe(true);
    await db.execute(
      sql`update approval_links set rate_window_count = ${APPROVAL_LINK_RATE_PER_MINUTE} where id = ${link.id}`,
    );
    expect(await checkApprovalLink(db, link.token, '198.51.100.22')).toMatchObject({ ok: false, status: 429 });
  });
});

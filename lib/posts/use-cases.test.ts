import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveries, idempotencyKeys, socialAccounts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { cancelPost } from './cancel';
import { createPost } from './create';
import { getPost } from './get';
import { listPostPage } from './list';

const { db } = await createTestDatabase();
let workspaceId: string;
let otherWorkspaceId: string;
let accountId: string;

beforeAll(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  otherWorkspaceId = (await makeWorkspace(db)).id;
  accountId = (await makeAccount(db, workspaceId)).id;
});

const context = (key = randomUUID()) => ({ workspaceId, source: 'api' as const, idempotencyKey: key, actor: 'test' });
const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
const request = (text: string, accountIds = [accountId]) => ({
  text,
  accountIds,
  kind: 'post' as const,
  scheduledAt: inAnHour,
});

describe('post use cases answer typed results, free of HTTP', () => {
  it('create: ok carries the stored answer; a rejection is a typed value and stores no key', async () => {
    const key = randomUUID();
    const created = await createPost(db, request('typed'), context(key));
    expect(created).toMatchObject({ kind: 'ok', replayed: false, stored: { status: 201 } });
    const again = await createPost(db, request('typed'), context(key));
    expect(again).toEqual({ ...created, replayed: true });
    expect(await createPost(db, request('another intent'), context(key))).toEqual({ kind: 'key_reused' });

    const badKey = randomUUID();
    const rejected = await createPost(db, request('nope', [randomUUID()]), context(badKey));
    expect(rejected).toEqual({
      kind: 'invalid',
      errors: { accountIds: ['One or more accounts do not exist in this workspace or are disconnected'] },
    });
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, badKey))).toHaveLength(0);
  });

  it("create: a reply LinkedIn does not take (a comment only as a thread's second part) is a field error on the accounts, stores nothing", async () => {
    const [linkedin] = await db
      .insert(socialAccounts)
      .values({
        workspaceId,
        provider: 'linkedin',
        sandbox: true,
        handle: 'Sandbox Company 0001',
        platformUserId: `urn:li:organization:${Date.now()}`,
        baseUrl: '/api/sandbox/linkedin',
        credentialsEncrypted: 'v1.x.x.x',
        tokenLast4: 'abcd',
      })
      .returning();
    const reply = { ...request('an answer', [accountId, linkedin!.id]), kind: 'reply' as const, inReplyTo: '123' };
    const key = randomUUID();
    expect(await createPost(db, reply, context(key))).toEqual({
      kind: 'invalid',
      errors: {
        accountIds: [
          "LinkedIn takes a comment only as a thread's second part, the post's first comment (Sandbox Company 0001)",
        ],
      },
    });
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
    expect(await createPost(db, { ...reply, accountIds: [accountId] }, context())).toMatchObject({ kind: 'ok' });
    expect(await createPost(db, request('a post', [linkedin!.id]), context())).toMatchObject({ kind: 'ok' });
  });

  it('cancel: ok with the canceled ids, then ok with none; not_found across workspaces; conflict once all are settled', async () => {
    const created = await createPost(db, request('to cancel'), context());
    if (created.kind !== 'ok') throw new Error(created.kind);
    expect(await cancelPost(db, { workspaceId: otherWorkspaceId, postId: created.postId, actor: 'test' })).toEqual({
      kind: 'not_found',
    });
    const first = await cancelPost(db, { workspaceId, postId: created.postId, actor: 'test' });
    expect(first).toMatchObject({ kind: 'ok', post: { status: 'canceled' } });
    expect(first.kind === 'ok' && first.canceledDeliveryIds).toHaveLength(1);
    expect(await cancelPost(db, { workspaceId, postId: created.postId, actor: 'test' })).toMatchObject({
      kind: 'ok',
      canceledDeliveryIds: [],
    });
    expect(await cancelPost(db, { workspaceId, postId: 'not-a-uuid', actor: 'test' })).toEqual({ kind: 'not_found' });

    const sent = await createPost(db, request('already out'), context());
    if (sent.kind !== 'ok') throw new Error(sent.kind);
    await db.update(deliveries).set({ status: 'publishing' }).where(eq(deliveries.postId, sent.postId));
    await db.update(deliveries).set({ status: 'sent' }).where(eq(deliveries.postId, sent.postId));
    expect(await cancelPost(db, { workspaceId, postId: sent.postId, actor: 'test' })).toMatchObject({
      kind: 'conflict',
      reason: 'not_cancelable',
      deliveries: [{ status: 'sent' }],
    });
  });

  it('get and list: workspace-scoped; a bad query is a typed invalid', async () => {
    const created = await createPost(db, request('readable'), context());
    if (created.kind !== 'ok') throw new Error(created.kind);
    expect(await getPost(db, { workspaceId, postId: created.postId })).toMatchObject({
      kind: 'ok',
      post: { id: created.postId, text: 'readable' },
    });
    expect(await getPost(db, { workspaceId: otherWorkspaceId, postId: created.postId })).toEqual({ kind: 'not_found' });
    const page = await listPostPage(db, workspaceId, { limit: '100' });
    expect(page.kind === 'ok' && page.page.data.some((p) => p.id === created.postId)).toBe(true);
    const theirs = await listPostPage(db, otherWorkspaceId, {});
    expect(theirs).toEqual({ kind: 'ok', page: { data: [], nextCursor: null } });
    expect(await listPostPage(db, workspaceId, { limit: '0' })).toMatchObject({
      kind: 'invalid',
      errors: { limit: expect.any(Array) },
    });
    expect(await listPostPage(db, workspaceId, { cursor: 'garbage' })).toMatchObject({
      kind: 'invalid',
      errors: { cursor: expect.any(Array) },
    });
  });
});

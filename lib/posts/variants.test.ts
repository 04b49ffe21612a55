import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, postVariants } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { testPublisherOptions } from '@/testing/publisher';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { createPost } from './create';
import { editPost } from './edit';
import { createPostRequestSchema } from './schemas';

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
const publish = (callTimeoutMs = 5_000) =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs }));
const context = (workspaceId: string, key = randomUUID()) => ({
  workspaceId,
  source: 'api' as const,
  idempotencyKey: key,
  actor: 'test',
});
const request = (body: Record<string, unknown>) => createPostRequestSchema.parse(body);

/** A workspace with an X and a Mastodon account on the sandbox. */
async function twoNetworks() {
  const x = await sandbox.connectAccount('x');
  const mastodon = await sandbox.connectAccount('mastodon', x.workspaceId);
  return { workspaceId: x.workspaceId, x, mastodon };
}

describe('per-network text (variants)', () => {
  it('each account publishes its own text, exactly once; the other text never reaches it', async () => {
    const { workspaceId, x, mastodon } = await twoNetworks();
    // 400 characters: too long for X (280), fine for Mastodon (500). X gets its own short version.
    const long = `${sandbox.uniqueText('long')} ${'word '.repeat(80)}`.trim();
    const short = sandbox.uniqueText('short for X');
    const created = await createPost(
      db,
      request({
        text: long,
        accountIds: [x.productAccountId, mastodon.productAccountId],
        variants: { [x.productAccountId]: { text: short } },
      }),
      context(workspaceId),
    );
    expect(created).toMatchObject({ kind: 'ok', replayed: false });
    if (created.kind !== 'ok') return;
    const body = JSON.parse(created.stored.body);
    expect(body.variants).toEqual({ [x.productAccountId]: { text: short } });

    const summary = await publish();
    expect(summary.sent).toBeGreaterThanOrEqual(2);
    const rows = await db.select().from(deliveries).where(eq(deliveries.postId, created.postId));
    expect(rows.map((d) => d.status)).toEqual(['sent', 'sent']);
    expect(await sandbox.copiesOfText(x.sandboxAccount.id, short)).toBe(1);
    expect(await sandbox.copiesOfText(x.sandboxAccount.id, long)).toBe(0);
    expect(await sandbox.copiesOfText(mastodon.sandboxAccount.id, long)).toBe(1);
    expect(await sandbox.copiesOfText(mastodon.sandboxAccount.id, short)).toBe(0);
    expect(await sandbox.copies(x.sandboxAccount.id)).toBe(1);
    expect(await sandbox.copies(mastodon.sandboxAccount.id)).toBe(1);
  });

  it('an unknown outcome is reconciled against the variant text (found → sent, never resent)', async () => {
    const { workspaceId, x } = await twoNetworks();
    await sandbox.setFaults(x.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const main = sandbox.uniqueText('main text');
    const variant = sandbox.uniqueText('x variant');
    const created = await createPost(
      db,
      request({ text: main, accountIds: [x.productAccountId], variants: { [x.productAccountId]: { text: variant } } }),
      context(workspaceId),
    );
    if (created.kind !== 'ok') throw new Error(created.kind);
    await publish(300);
    const [delivery] = await db.select().from(deliveries).where(eq(deliveries.postId, created.postId));
    expect(delivery!.status).toBe('ambiguous');
    await sandbox.setFaults(x.sandboxAccount.id, {});
    await db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, delivery!.id));
    await reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
    const [after] = await db.select().from(deliveries).where(eq(deliveries.id, delivery!.id));
    expect(after!.status).toBe('sent');
    expect(await sandbox.copiesOfText(x.sandboxAccount.id, variant)).toBe(1);
    expect(await sandbox.copies(x.sandboxAccount.id)).toBe(1);
  });

  it("each text is checked against its own network's limit, with the field that holds it", async () => {
    const { workspaceId, x, mastodon } = await twoNetworks();
    const accountIds = [x.productAccountId, mastodon.productAccountId];
    // The post's text is too long for X only: fine once X has its own text.
    const long = 'a'.repeat(300);
    expect(await createPost(db, request({ text: long, accountIds }), context(workspaceId))).toMatchObject({
      kind: 'invalid',
      errors: { text: [expect.stringMatching(/^300\/280 characters: too long for @/)] },
    });
    const tooLongVariant = await createPost(
      db,
      request({ text: 'ok', accountIds, variants: { [x.productAccountId]: { text: long } } }),
      context(workspaceId),
    );
    expect(tooLongVariant).toEqual({
      kind: 'invalid',
      errors: { [`variants.${x.productAccountId}.text`]: [expect.stringMatching(/^300\/280 characters/)] },
    });
    // A long URL counts 23 on X: this variant fits although it is over 280 code points.
    const withUrl = `${'b'.repeat(250)} https://example.com/${'p'.repeat(100)}`;
    expect(
      await createPost(
        db,
        request({ text: long, accountIds, variants: { [x.productAccountId]: { text: withUrl } } }),
        context(workspaceId),
      ),
    ).toMatchObject({ kind: 'ok' });
    // A variant for an account that is not a target is refused before anything runs.
    const stranger = randomUUID();
    const parsed = createPostRequestSchema.safeParse({
      text: 'x',
      accountIds,
      variants: { [stranger]: { text: 'y' } },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toEqual([`variants.${stranger}`]);
  });

  it('I3 — the key fingerprint covers the variants: another variant under the same key is refused', async () => {
    const { workspaceId, x, mastodon } = await twoNetworks();
    const key = randomUUID();
    const accountIds = [x.productAccountId, mastodon.productAccountId];
    const body = (text: string) =>
      request({
        text: 'same',
        accountIds,
        variants: { [x.productAccountId]: { text }, [mastodon.productAccountId]: { text: 'm' } },
      });
    const first = await createPost(db, body('one'), context(workspaceId, key));
    expect(first).toMatchObject({ kind: 'ok', replayed: false });
    // Same variants in another key order: the same request, replayed.
    const reordered = request({
      text: 'same',
      accountIds: [...accountIds].reverse(),
      variants: { [mastodon.productAccountId]: { text: 'm' }, [x.productAccountId]: { text: 'one' } },
    });
    expect(await createPost(db, reordered, context(workspaceId, key))).toMatchObject({ kind: 'ok', replayed: true });
    expect(await createPost(db, body('two'), context(workspaceId, key))).toEqual({ kind: 'key_reused' });
    const stored = await db.select().from(postVariants).where(eq(postVariants.workspaceId, workspaceId));
    expect(stored.map((v) => v.text).sort()).toEqual(['m', 'one']);
  });

  it('an edit replaces the variants; editing only the text keeps them; a removed account loses its own', async () => {
    const { workspaceId, x, mastodon } = await twoNetworks();
    const accountIds = [x.productAccountId, mastodon.productAccountId];
    const created = await createPost(
      db,
      request({
        text: 'main',
        accountIds,
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
        variants: { [x.productAccountId]: { text: 'for x' } },
      }),
      context(workspaceId),
    );
    if (created.kind !== 'ok') throw new Error(created.kind);
    const edit = (changes: Record<string, unknown>) =>
      editPost(db, { workspaceId, postId: created.postId, changes, actor: 'test', idempotencyKey: randomUUID() });
    expect(await edit({ text: 'main, edited' })).toMatchObject({
      kind: 'ok',
      post: { text: 'main, edited', variants: { [x.productAccountId]: { text: 'for x' } } },
    });
    expect(await edit({ variants: { [mastodon.productAccountId]: { text: 'for mastodon' } } })).toMatchObject({
      kind: 'ok',
      post: { variants: { [mastodon.productAccountId]: { text: 'for mastodon' } } },
    });
    const dropped = await edit({ accountIds: [x.productAccountId] });
    expect(dropped).toMatchObject({ kind: 'ok', post: { variants: {} } });
    expect(await edit({ variants: { [mastodon.productAccountId]: { text: 'not a target any more' } } })).toEqual({
      kind: 'invalid',
      errors: { [`variants.${mastodon.productAccountId}`]: ['This account is not one of the post’s accounts'] },
    });
  });
});

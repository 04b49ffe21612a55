import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { deliveries, reconciliations } from '@/db/schema';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries, type ReconcileOptions } from '@/lib/reconcile/reconcile';
import type { FaultSettings } from '@/sandbox/store/types';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { fetchThroughApp, storedImage, storedVideo } from '@/testing/media';
import { makeTestVideo } from '@/testing/video';
import { VIDEO_PROCESSING_MS } from '@/sandbox/dialects/instagram/api';
import { insertPostMedia } from '@/db/queries/media';
import {
  attemptCount,
  deliveryStates,
  schedulePostWithMedia,
  scheduleThread,
  testPublisherOptions,
} from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';

// I1 on Instagram, end to end: the publisher, the reconciler and the real client against the sandbox (Postgres
// store, real sockets), with the images stored by the app and fetched by the platform from their signed URLs.
// One container per delivery, kept before it is published; every unknown outcome of media_publish is settled by
// that container's status_code; the platform's own records count the copies.

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-instagram-media-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(mediaDir);

const CALL_TIMEOUT_MS = 1_000; // below the sandbox's 2 s hang
const ROOMY_TIMEOUT_MS = 4_000; // the limit read, the container, its status and the publish on a busy machine
const sandbox = await startTestSandbox({ hangMs: 2_000, fetchImage: fetchThroughApp });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const publish = (overrides: Parameters<typeof testPublisherOptions>[1] = {}) =>
  publishDueDeliveries(
    db,
    testPublisherOptions(sandbox.url, { callTimeoutMs: ROOMY_TIMEOUT_MS, mediaStorage: storage, ...overrides }),
  );
const reconcile = (overrides: Partial<ReconcileOptions> = {}) =>
  reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url, overrides));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
const decisions = async (id: string) =>
  (
    await db
      .select({ decision: reconciliations.decision })
      .from(reconciliations)
      .where(eq(reconciliations.deliveryId, id))
      .orderBy(reconciliations.checkedAt)
  ).map((r) => r.decision);
const containers = (account: Account) =>
  db.execute<{ id: string; post_id: string | null; media_type: string }>(
    sql`select id::text, post_id::text, media_type from sandbox.threads_containers where account_id = ${account.sandboxAccount.id} order by created_at, id`,
  );

/** A post due now to the account with `images` JPEGs (Instagram publishes JPEG only), in `format` if given. */
async function schedule(account: Account, images = 1, format?: string) {
  const media = [];
  for (let i = 0; i < images; i++)
    media.push(await storedImage(db, storage, account.workspaceId, { index: i, format: 'jpeg' }));
  const text = sandbox.uniqueText('instagram');
  const id = await schedulePostWithMedia(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    text,
    mediaIds: media.map((m) => m.id),
  });
  if (format) await db.update(deliveries).set({ format }).where(eq(deliveries.id, id));
  return { id, text, media };
}

/** A delivery made ambiguous by `faults` on media_publish; the platform then answers normally again. */
async function ambiguousDelivery(faults: Partial<FaultSettings>) {
  const account = await sandbox.connectAccount('instagram');
  await sandbox.setFaults(account.sandboxAccount.id, faults);
  const { id, text } = await schedule(account);
  await publish({ callTimeoutMs: CALL_TIMEOUT_MS });
  expect((await status(id)).status).toBe('ambiguous');
  await sandbox.setFaults(account.sandboxAccount.id, {});
  await dueNow(id);
  return { id, text, account };
}

describe('Instagram through the publisher: one container, one post', () => {
  it('I1 — an image and a carousel of three are each published once, showing the stored bytes', async () => {
    const account = await sandbox.connectAccount('instagram');
    const single = await schedule(account, 1);
    const carousel = await schedule(account, 3);
    await publish();
    expect((await status(single.id)).status).toBe('sent');
    expect((await status(carousel.id)).status).toBe('sent');
    const copies = await sandbox.allPosts(account.sandboxAccount.id);
    expect(copies.map((p) => [p.text, p.media.map((m) => m.sha256)])).toEqual(
      expect.arrayContaining([
        [single.text, single.media.map((m) => m.sha256)],
        [carousel.text, carousel.media.map((m) => m.sha256)],
      ]),
    );
    expect(copies).toHaveLength(2);
    expect(await attemptCount(db, carousel.id)).toBe(1);
  });
});

describe('Instagram Reels through the publisher', () => {
  it('I1 — a video is a Reel: processed first (held, nothing published), then the same container goes out once', async () => {
    const account = await sandbox.connectAccount('instagram');
    const video = await storedVideo(
      db,
      storage,
      account.workspaceId,
      await makeTestVideo(path.join(mediaDir, 'reel.mp4'), { seconds: 3, width: 360, height: 640 }),
    );
    const text = sandbox.uniqueText('instagram reel');
    const id = await schedulePostWithMedia(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      text,
      mediaIds: [video.id],
    });
    await publish();
    // Instagram fetched the video from its signed link and is processing it: held, not published, not failed.
    expect((await status(id)).status).toBe('scheduled');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, VIDEO_PROCESSING_MS + 200));
    await dueNow(id);
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect((await containers(account)).map((c) => c.media_type)).toEqual(['REELS']);
    const [copy] = await sandbox.allPosts(account.sandboxAccount.id);
    expect(copy).toMatchObject({ text, media: [{ type: 'video/mp4', sha256: video.sha256, altText: '' }] });
    expect(await attemptCount(db, id)).toBe(2);
  });
});

describe('Instagram Stories through the publisher', () => {
  it('I1 — a delivery in the story format goes out once as a Story, kept as one on the delivery', async () => {
    const account = await sandbox.connectAccount('instagram');
    const { id, text } = await schedule(account, 1, 'story');
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect((await containers(account)).map((c) => c.media_type)).toEqual(['STORIES']);
    const [{ state }] = await db
      .select({ state: deliveries.providerState })
      .from(deliveries)
      .where(eq(deliveries.id, id));
    expect(state).toMatchObject({ format: 'story' });
    // No caption on a Story: the copy on the platform carries the image, and is not in the media listing.
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(0);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('I1 — a Story whose publish answer was lost: PUBLISHED but in no listing → review with the container as evidence', async () => {
    const account = await sandbox.connectAccount('instagram');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const { id } = await schedule(account, 1, 'story');
    await publish({ callTimeoutMs: CALL_TIMEOUT_MS });
    expect((await status(id)).status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(id);
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const [check] = await db
      .select({ decision: reconciliations.decision, evidence: reconciliations.evidence })
      .from(reconciliations)
      .where(eq(reconciliations.deliveryId, id));
    expect(check).toMatchObject({ decision: 'needs_review', evidence: { status: 'PUBLISHED', listable: false } });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });
});

describe('Instagram: an unknown outcome of media_publish is settled by the container’s status_code', () => {
  for (const fault of ['timeoutAfterCommit', 'resetAfterCommit', 'errorAfterCommit'] as const) {
    it(`I1 — ${fault}: the container reads PUBLISHED → sent with the listed post’s id; one copy, one attempt`, async () => {
      const { id, text, account } = await ambiguousDelivery({ [fault]: 1 });
      await reconcile();
      expect(await decisions(id)).toEqual(['found']);
      const [copy] = await sandbox.allPosts(account.sandboxAccount.id);
      expect(await status(id)).toMatchObject({ status: 'sent', externalId: copy!.id });
      expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
      expect(await attemptCount(db, id)).toBe(1);
    });
  }

  it('I1 — timeoutBeforeCommit: FINISHED twice after the quiet period → released → the same container → one copy', async () => {
    const { id, text, account } = await ambiguousDelivery({ timeoutBeforeCommit: 1 });
    const [container] = await containers(account);
    await reconcile();
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck', 'released']);
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect(await containers(account)).toEqual([
      { id: container!.id, post_id: (await status(id)).externalId, media_type: 'IMAGE' },
    ]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('I1 — an expired container: the media listing proves absence twice → released → a new container, one post', async () => {
    const { id, text, account } = await ambiguousDelivery({ timeoutBeforeCommit: 1 });
    await db.execute(
      sql`update sandbox.threads_containers set created_at = now() - interval '25 hours' where account_id = ${account.sandboxAccount.id}`,
    );
    await reconcile();
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck', 'released']);
    await publish();
    expect((await status(id)).status).toBe('sent');
    const [expired, fresh] = await containers(account);
    expect(expired!.post_id).toBeNull();
    expect(fresh!.post_id).toBe((await status(id)).externalId);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it("I1 — a recurring caption and an expired container: the other delivery's post is set aside, absence proven twice → the container dropped on release → one new post", async () => {
    const account = await sandbox.connectAccount('instagram');
    const yesterday = await schedule(account);
    await publish();
    expect((await status(yesterday.id)).status).toBe('sent');
    // Today's delivery, same caption: its kept container expired while it was held.
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutBeforeCommit: 1 });
    const media = await storedImage(db, storage, account.workspaceId, { format: 'jpeg' });
    const id = await schedulePostWithMedia(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      text: yesterday.text,
      mediaIds: [media.id],
    });
    await publish({ callTimeoutMs: CALL_TIMEOUT_MS });
    expect((await status(id)).status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await db.execute(
      sql`update sandbox.threads_containers set created_at = now() - interval '25 hours' where post_id is null and account_id = ${account.sandboxAccount.id}`,
    );
    await dueNow(id);
    await reconcile();
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck', 'released']);
    const [{ state }] = await db
      .select({ state: deliveries.providerState })
      .from(deliveries)
      .where(eq(deliveries.id, id));
    expect(state).toEqual({});
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, yesterday.text)).toBe(2);
    expect((await status(id)).externalId).not.toBe((await status(yesterday.id)).externalId);
  });

  it('I2 — a throttled publish (429-like Graph code 4) holds the delivery, then the kept container goes out once', async () => {
    const account = await sandbox.connectAccount('instagram');
    await sandbox.setFaults(account.sandboxAccount.id, { rateLimited: 1 });
    const { id, text } = await schedule(account);
    await publish();
    expect((await status(id)).status).toBe('scheduled');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(id);
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect(await containers(account)).toHaveLength(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });
});

/** A thread to Instagram: the post (one JPEG, on part 0) and its first comment; both deliveries, in part order. */
async function scheduleFirstComment(account: Account) {
  const image = await storedImage(db, storage, account.workspaceId, { format: 'jpeg' });
  const parts = [sandbox.uniqueText('instagram post'), sandbox.uniqueText('first comment')];
  const { postId, byAccount } = await scheduleThread(db, {
    workspaceId: account.workspaceId,
    accountIds: [account.productAccountId],
    parts,
  });
  await insertPostMedia(db, { postId, part: 0, mediaIds: [image.id] });
  const [post, comment] = byAccount.get(account.productAccountId)!;
  return { post: post!, comment: comment!, parts };
}
const commentsOn = async (account: Account, mediaId: string) =>
  (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.inReplyToId === mediaId);

/** The post is out; its first comment is due, and made ambiguous by `faults`; then the platform answers normally. */
async function ambiguousComment(faults: Partial<FaultSettings>) {
  const account = await sandbox.connectAccount('instagram');
  const thread = await scheduleFirstComment(account);
  // The comment is held back an hour so that the faults meet it alone (a pass otherwise sends both in turn).
  await db
    .update(deliveries)
    .set({ dueAt: new Date(Date.now() + 3_600_000) })
    .where(eq(deliveries.id, thread.comment));
  await publish();
  const post = await status(thread.post);
  expect([post.status, (await status(thread.comment)).status]).toEqual(['sent', 'scheduled']);
  await sandbox.setFaults(account.sandboxAccount.id, faults);
  await dueNow(thread.comment);
  await publish({ callTimeoutMs: CALL_TIMEOUT_MS });
  expect((await status(thread.comment)).status).toBe('ambiguous');
  await sandbox.setFaults(account.sandboxAccount.id, {});
  // The reconciler reads once the call's timeout has passed since the attempt (a quick 502 answers well before).
  await new Promise((resolve) => setTimeout(resolve, CALL_TIMEOUT_MS));
  return { ...thread, account, mediaId: post.externalId! };
}

describe('Instagram first comments through the publisher: after the post, once', () => {
  it('I1 — a post and its first comment: the comment goes out after the post is confirmed, once, on that post', async () => {
    const account = await sandbox.connectAccount('instagram');
    const { post, comment, parts } = await scheduleFirstComment(account);
    await publish();
    await publish();
    const [sentPost, sentComment] = [await status(post), await status(comment)];
    expect([sentPost.status, sentComment.status]).toEqual(['sent', 'sent']);
    const comments = await commentsOn(account, sentPost.externalId!);
    expect(comments.map((c) => [c.id, c.text])).toEqual([[sentComment.externalId, parts[1]]]);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(2); // the post and its comment, nothing else
  });

  for (const fault of ['timeoutAfterCommit', 'errorAfterCommit', 'resetAfterCommit'] as const) {
    it(`I1 — ${fault} on the comment: the media's comments show it → sent with that id; one comment, one attempt`, async () => {
      const { comment, mediaId, account } = await ambiguousComment({ [fault]: 1 });
      await reconcile();
      expect(await decisions(comment)).toEqual(['found']);
      const [copy] = await commentsOn(account, mediaId);
      expect(await status(comment)).toMatchObject({ status: 'sent', externalId: copy!.id });
      expect(await commentsOn(account, mediaId)).toHaveLength(1);
      expect(await attemptCount(db, comment)).toBe(1);
    });
  }

  it('I1 — timeoutBeforeCommit on the comment: absent from the comments twice → released → one comment', async () => {
    const { comment, mediaId, account } = await ambiguousComment({ timeoutBeforeCommit: 1 });
    await reconcile();
    await reconcile();
    expect(await decisions(comment)).toEqual(['not_found_recheck', 'released']);
    await dueNow(comment);
    await publish();
    expect((await status(comment)).status).toBe('sent');
    expect(await commentsOn(account, mediaId)).toHaveLength(1);
  });

  it('I1 — a similar comment on the post blocks a resend: needs_review with it as evidence, no second comment', async () => {
    const { comment, mediaId, account, parts } = await ambiguousComment({ timeoutBeforeCommit: 1 });
    // The same words, rewritten a little (as a person editing it in the app would leave them).
    const parent = (await sandbox.allPosts(account.sandboxAccount.id)).find((p) => p.id === mediaId)!;
    const author = (await sandbox.store.getAccountById(parent.accountId))!;
    await sandbox.store.insertPost({ account: author, kind: 'reply', text: `${parts[1]}!`, inReplyToId: mediaId });
    await reconcile();
    expect(await decisions(comment)).toEqual(['needs_review']);
    expect((await status(comment)).status).toBe('needs_review');
    await dueNow(comment);
    await publish();
    expect(await commentsOn(account, mediaId)).toHaveLength(1);
  });
});

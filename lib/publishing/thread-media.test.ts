import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { createPost } from '@/lib/posts/create';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import type { ProviderName } from '@/lib/providers/types';
import { fetchThroughApp, storedImage as storedJpeg } from '@/testing/media';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import type { SandboxPost } from '@/sandbox/store/types';
import { publishDueDeliveries } from './publish-due';
import { attemptCount, testPublisherOptions } from '@/testing/publisher';

// A thread whose second part has an image (docs/architecture.md#media-before-the-post): created through the real create
// path, published by the real clients against the sandbox. Each part uploads its own images just before it is created,
// so part 2's copy carries the image and parts 1 and 3 carry none; every part is one copy, chained, whatever the
// uploads do.

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-thread-media-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(mediaDir);

const sandbox = await startTestSandbox({ hangMs: 3_000, fetchImage: fetchThroughApp });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;
const publish = (callTimeoutMs = 5_000) =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs, mediaStorage: storage }));

const storedImage = (workspaceId: string) => storedJpeg(db, storage, workspaceId, { format: 'jpeg' });

/** A thread of 3 to one account, created as the API creates it, with one image on part 2. */
async function threadWithImageOnPart2(account: Account, label: string) {
  const image = await storedImage(account.workspaceId);
  const tag = sandbox.uniqueText(label);
  const texts = [1, 2, 3].map((k) => `${tag} — part ${k}/3`);
  const request = createPostRequestSchema.parse({
    kind: 'thread',
    accountIds: [account.productAccountId],
    parts: texts.map((text, i) => (i === 1 ? { text, mediaIds: [image.id] } : { text })),
  });
  const created = await createPost(db, request, {
    workspaceId: account.workspaceId,
    source: 'api',
    idempotencyKey: randomUUID(),
    actor: 'test',
  });
  if (created.kind !== 'ok') throw new Error(`not created: ${JSON.stringify(created)}`);
  return { postId: created.postId, texts, image };
}

const platformId = (account: Account, network: ProviderName, post: SandboxPost) =>
  network === 'bluesky' ? `at://${account.platformUserId}/app.bsky.feed.post/${post.recordKey}` : post.id;

/** One live copy per part, chained; returns them in part order. */
async function chainOf(account: Account, network: ProviderName, texts: string[]) {
  const stored = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => !p.deletedAt);
  const copies = texts.map((text) => stored.filter((p) => p.text === text));
  expect(copies.map((c) => c.length)).toEqual([1, 1, 1]);
  const chain = copies.map((c) => c[0]!);
  expect(chain[0]!.inReplyToId).toBeNull();
  expect(chain[1]!.inReplyToId).toBe(platformId(account, network, chain[0]!));
  expect(chain[2]!.inReplyToId).toBe(platformId(account, network, chain[1]!));
  return chain;
}

const partDeliveries = (postId: string) =>
  db.execute<{ id: string; part: number; status: string }>(
    sql`select id, part, status::text from deliveries where post_id = ${postId} order by part`,
  );

describe('a thread with an image on part 2 (each part uploads its own images before it is created)', () => {
  // LinkedIn takes no replies, so no threads (refused when the thread is created).
  const networks: ProviderName[] = ['x', 'mastodon', 'bluesky', 'threads'];
  for (const network of networks) {
    it(`${network}: part 2's copy carries the image and its alt text; parts 1 and 3 none; one copy per part, chained`, async () => {
      const account = await sandbox.connectAccount(network);
      const { postId, texts, image } = await threadWithImageOnPart2(account, `${network} thread image`);
      for (let pass = 0; pass < 3; pass++) await publish();
      const parts = [...(await partDeliveries(postId))];
      expect(parts.map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
      const chain = await chainOf(account, network, texts);
      expect(chain.map((c) => c.media)).toEqual([
        [],
        [{ type: 'image/jpeg', altText: image.altText, sha256: image.sha256 }],
        [],
      ]);
      for (const d of parts) expect(await attemptCount(db, d.id)).toBe(1);
    });
  }

  it('an upload of part 2 that is stored but unanswered: part 2 is not_sent, then uploads again and posts once', async () => {
    const account = await sandbox.connectAccount('x');
    const { postId, texts, image } = await threadWithImageOnPart2(account, 'retried part image');
    const [part1, part2, part3] = [...(await partDeliveries(postId))];
    // Part 2 held back, so the fault below hits its upload (not part 1's post).
    await db.execute(sql`update deliveries set due_at = now() + interval '1 hour' where id = ${part2!.id}`);
    await publish();
    expect([...(await partDeliveries(postId))].map((d) => d.status)).toEqual(['sent', 'scheduled', 'scheduled']);

    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    await db.execute(sql`update deliveries set due_at = now() where id = ${part2!.id}`);
    expect(await publish(800)).toMatchObject({ not_sent: 1, ambiguous: 0, sent: 0 });
    const posted = async (text: string) =>
      (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.text === text).length;
    expect(await posted(texts[1]!)).toBe(0); // the upload landed, the part was never created

    await sandbox.setFaults(account.sandboxAccount.id, {});
    await db.execute(sql`update deliveries set due_at = now() where id = ${part2!.id}`);
    for (let pass = 0; pass < 3; pass++) await publish();
    expect([...(await partDeliveries(postId))].map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
    const chain = await chainOf(account, 'x', texts);
    expect(chain.map((c) => c.media.length)).toEqual([0, 1, 0]);
    expect(chain[1]!.media).toEqual([{ type: 'image/jpeg', altText: image.altText, sha256: image.sha256 }]);
    expect(await attemptCount(db, part1!.id)).toBe(1);
    expect(await attemptCount(db, part2!.id)).toBe(2);
    expect(await attemptCount(db, part3!.id)).toBe(1);
  });
});

import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { connectAccount } from '@/db/queries/accounts';
import { insertMedia } from '@/db/queries/media';
import { attempts, deliveries } from '@/db/schema';
import { makeWorkspace } from '@/db/testing/factories';
import { createTestDatabase } from '@/db/testing/test-database';
import { checkImage } from '@/lib/media/image';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { makeImage } from '@/lib/media/testing/images';
import { createPost } from '@/lib/posts/create';
import { createPostRequestSchema } from '@/lib/posts/post-input';
import { sealCredentials } from '@/lib/providers/credentials';
import { createProviderClient, providerDefinition, verifyAccount } from '@/lib/providers';
import { sendOnce } from '@/lib/providers/http';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { attemptCount, deliveryStates, schedulePosts, testPublisherOptions } from '@/lib/publishing/testing';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { testReconcileOptions } from '@/lib/reconcile/testing';
import { TEST_ENCRYPTION_KEY } from '@/lib/sandbox/testing/harness';
import { startFaultProxy, type Fault } from '../testing/fault-proxy';
import { startPdsFixture } from '../testing/pds-fixture';
import { classifyBluesky } from './classifier';
import type { BlueskyClient } from './client';

// Semel's real Bluesky client, publisher and reconciler against the reference PDS (@atproto/pds with a PLC
// directory, on loopback), through a fault proxy that breaks the one write. Copies are counted on the PDS itself
// (listRecords), never through Semel: each delivery must end as exactly one record, `sent` with its URI.

// A self-hoster's PDS on their own network is allowed the same way (production allows only public addresses).
process.env.OUTBOUND_ALLOWED_HOSTS = '127.0.0.1';
const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-pds-media-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;

const CALL_TIMEOUT_MS = 4_000;
const { db } = await createTestDatabase();
const pds = await startPdsFixture();
const proxy = await startFaultProxy(pds.url);
const storage = createDiskMediaStorage(mediaDir);
afterAll(async () => {
  await proxy.close();
  await pds.stop();
  rmSync(mediaDir, { recursive: true, force: true });
});

const publish = () =>
  publishDueDeliveries(
    db,
    testPublisherOptions(proxy.url, { callTimeoutMs: CALL_TIMEOUT_MS, budgetMs: 30_000, mediaStorage: storage }),
  );
const reconcile = () => reconcileAmbiguousDeliveries(db, testReconcileOptions(proxy.url, { readTimeoutMs: 5_000 }));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
const attemptOutcomes = async (id: string) =>
  (await db.select().from(attempts).where(eq(attempts.deliveryId, id)).orderBy(attempts.startedAt)).map(
    (a) => a.outcome,
  );
const externalUrl = async (id: string) =>
  (await db.select({ url: deliveries.externalUrl }).from(deliveries).where(eq(deliveries.id, id)))[0]!.url;
const PUT_RECORD = '/xrpc/com.atproto.repo.putRecord';
const puts = () => proxy.exchanges.filter((e) => e.path === PUT_RECORD);

/** An account on the PDS with an app password, connected as the accounts page connects it (verify, then seal). */
async function connectedAccount() {
  const workspace = await makeWorkspace(db);
  const user = await pds.createAccount();
  const fields = providerDefinition('bluesky').connectSchema.parse({
    serviceUrl: proxy.url,
    identifier: user.handle,
    appPassword: user.appPassword,
  });
  const check = await verifyAccount('bluesky', fields);
  if (!check.ok) throw new Error(check.message);
  expect(check).toMatchObject({ baseUrl: proxy.url, identity: { platformUserId: user.did } });
  const account = await connectAccount(
    db,
    { workspaceId: workspace.id, provider: 'bluesky', sandbox: false, baseUrl: check.baseUrl, ...check.identity },
    (id) => sealCredentials(check.credentials, TEST_ENCRYPTION_KEY, id),
  );
  return { workspaceId: workspace.id, accountId: account.id, did: user.did, credentials: check.credentials };
}

/** Reconciles and republishes until the delivery settles (bounded). */
async function settle(id: string) {
  for (let round = 0; round < 6; round++) {
    const { status: now } = await status(id);
    if (now === 'ambiguous') {
      await dueNow(id);
      await reconcile();
    } else if (now === 'scheduled') {
      await dueNow(id);
      await publish();
    } else return;
  }
}

describe('the reference PDS through a fault proxy: exactly one record per delivery, sent with its URI', () => {
  const answeredThenBroken: [string, Fault][] = [
    ['the answer dropped after the PDS finished', 'drop-after-answer'],
    ['the connection reset after the PDS finished', 'reset-after-answer'],
    ['the answer delayed past the call timeout', 'delay-answer'],
  ];
  for (const [name, fault] of answeredThenBroken) {
    it(`I1 — ${name}: the PDS wrote, the client saw a failure (ambiguous); one getRecord settles it, no resend`, async () => {
      const account = await connectedAccount();
      const [id] = await schedulePosts(db, { ...account, count: 1, label: `pds ${fault} ${randomUUID()}` });
      proxy.arm({ fault, method: 'POST', path: PUT_RECORD, delayMs: CALL_TIMEOUT_MS + 1_500 });
      const before = puts().length;
      await publish();
      expect((await status(id!)).status).toBe('ambiguous');
      // Both sides: the PDS committed the write (a commit in its answer) and the client never had that answer.
      const [write] = puts().slice(before);
      expect(write).toMatchObject({ fault, clientGone: true, upstream: { status: 200 } });
      expect(JSON.parse(write!.upstream!.body)).toHaveProperty('commit');
      if (fault === 'delay-answer') await new Promise((r) => setTimeout(r, 1_600)); // the late answer is gone too

      await settle(id!);
      const records = await pds.listPosts(account.did);
      expect(records).toHaveLength(1);
      expect(await status(id!)).toMatchObject({ status: 'sent', externalId: records[0]!.uri });
      expect(JSON.parse(write!.upstream!.body).uri).toBe(records[0]!.uri);
      expect(await attemptOutcomes(id!)).toEqual(['ambiguous']); // settled by reading, never by a second write
      expect(puts().length - before).toBe(1);
      // A self-hosted PDS: the post's link is its at:// URI (no bsky.app page), the PDS URL in the check's evidence.
      expect(await externalUrl(id!)).toBe(records[0]!.uri);
    });
  }

  it('I1 — the request held so the write lands late: absent → released → republished; the late write meets the record and changes nothing', async () => {
    const account = await connectedAccount();
    const [id] = await schedulePosts(db, { ...account, count: 1, label: `pds held ${randomUUID()}` });
    proxy.arm({ fault: 'hold-request', method: 'POST', path: PUT_RECORD });
    const before = puts().length;
    await publish();
    expect((await status(id!)).status).toBe('ambiguous');
    const [late] = puts().slice(before);
    expect(late).toMatchObject({ fault: 'hold-request', clientGone: true, upstream: null });

    await settle(id!); // the key is empty while the write is held: released, then published again
    const [records] = [await pds.listPosts(account.did)];
    expect(records).toHaveLength(1);
    expect(await status(id!)).toMatchObject({ status: 'sent', externalId: records[0]!.uri });

    // The first attempt's write now reaches the PDS, after the client gave up and after the republish.
    await proxy.releaseHeld();
    expect(late!.upstream!.status).toBe(200);
    const answer = JSON.parse(late!.upstream!.body);
    expect(answer.uri).toBe(records[0]!.uri);
    expect(answer).not.toHaveProperty('commit'); // the same record under the same key: the PDS wrote nothing
    expect(await pds.listPosts(account.did)).toEqual(records);
    expect(await attemptOutcomes(id!)).toEqual(['ambiguous', 'sent']);
  });

  it('I1/I2 — the request lost (never forwarded): absent on the PDS → released → published once', async () => {
    const account = await connectedAccount();
    const [id] = await schedulePosts(db, { ...account, count: 1, label: `pds lost ${randomUUID()}` });
    proxy.arm({ fault: 'lose-request', method: 'POST', path: PUT_RECORD });
    const before = puts().length;
    await publish();
    expect((await status(id!)).status).toBe('ambiguous');
    expect(puts().slice(before)[0]).toMatchObject({ fault: 'lose-request', clientGone: true, upstream: null });
    expect(await pds.listPosts(account.did)).toEqual([]);

    await settle(id!);
    const records = await pds.listPosts(account.did);
    expect(records).toHaveLength(1);
    expect(await status(id!)).toMatchObject({ status: 'sent', externalId: records[0]!.uri });
    expect(await attemptOutcomes(id!)).toEqual(['ambiguous', 'sent']);
    expect(
      puts()
        .slice(before)
        .map((e) => e.upstream?.status ?? null),
    ).toEqual([null, 200]);
  });
});

describe('a thread of three with an image on part two, on the reference PDS', () => {
  it('one record per part, reply refs chained to the root, only part 2 embeds the image (its blob on the PDS)', async () => {
    const account = await connectedAccount();
    const checked = await checkImage(await makeImage('jpeg', { seed: 7 }));
    if ('ok' in checked) throw new Error(checked.message);
    const { sha256 } = await storage.put(checked.bytes);
    const image = await insertMedia(db, {
      workspaceId: account.workspaceId,
      sha256,
      type: checked.type,
      width: checked.width,
      height: checked.height,
      size: checked.bytes.length,
      altText: 'Part two’s picture',
      createdBy: 'test',
    });
    const tag = randomUUID().slice(0, 8);
    const texts = [1, 2, 3].map((k) => `pds thread ${tag} — part ${k}/3`);
    const created = await createPost(
      db,
      createPostRequestSchema.parse({
        kind: 'thread',
        accountIds: [account.accountId],
        parts: texts.map((text, i) => (i === 1 ? { text, mediaIds: [image.id] } : { text })),
      }),
      { workspaceId: account.workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
    );
    if (created.kind !== 'ok') throw new Error(`not created: ${JSON.stringify(created)}`);
    for (let pass = 0; pass < 4; pass++) await publish();

    const parts = await db.execute<{ id: string; status: string; external_id: string }>(
      sql`select id, status::text, external_id from deliveries where post_id = ${created.postId} order by part`,
    );
    expect(parts.map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
    const records = await pds.listPosts(account.did);
    expect(records).toHaveLength(3);
    const byText = texts.map((text) => records.filter((r) => r.value.text === text));
    expect(byText.map((r) => r.length)).toEqual([1, 1, 1]);
    const [one, two, three] = byText.map((r) => r[0]!);
    expect(parts.map((d) => d.external_id)).toEqual([one!.uri, two!.uri, three!.uri]);

    const ref = (r: typeof one) => ({ uri: r!.uri, cid: r!.cid });
    expect(one!.value.reply).toBeUndefined();
    expect(two!.value.reply).toEqual({ root: ref(one), parent: ref(one) });
    expect(three!.value.reply).toEqual({ root: ref(one), parent: ref(two) });

    expect(one!.value.embed).toBeUndefined();
    expect(three!.value.embed).toBeUndefined();
    const embed = two!.value.embed as { $type: string; images: { alt: string; image: { ref: { $link: string } } }[] };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images.map((i) => i.alt)).toEqual(['Part two’s picture']);
    // The blob the record names is on the PDS, byte for byte the stored image.
    const blob = await fetch(
      `${pds.url}/xrpc/com.atproto.sync.getBlob?${new URLSearchParams({ did: account.did, cid: embed.images[0]!.image.ref.$link })}`,
    );
    expect(blob.status).toBe(200);
    expect(
      createHash('sha256')
        .update(new Uint8Array(await blob.arrayBuffer()))
        .digest('hex'),
    ).toBe(sha256);
    for (const d of parts) expect(await attemptCount(db, d.id)).toBe(1);
    // Links on a self-hosted PDS: the at:// URI; the attempt's evidence names the PDS it lives on.
    for (const [i, d] of parts.entries()) expect(await externalUrl(d.id)).toBe(byText[i]![0]!.uri);
    const [sentEvent] = await db.execute<{ pds: string }>(
      sql`select detail->'evidence'->>'pds' as pds from delivery_events where delivery_id = ${parts[0]!.id} and to_status = 'sent'`,
    );
    expect(sentEvent!.pds).toBe(proxy.url);
  });
});

describe('the PDS’s answers, as the classifier rows read them (one test per row)', () => {
  async function directClient() {
    const account = await connectedAccount();
    const client = createProviderClient({
      provider: 'bluesky',
      baseUrl: pds.url,
      platformUserId: account.did,
      accessToken: account.credentials.accessToken,
      credentials: account.credentials,
    }) as BlueskyClient;
    const post = (text: string, idempotencyKey: string, createdAt: Date) =>
      client.publish({ kind: 'post', text, idempotencyKey, createdAt, timeoutMs: 10_000 });
    return { ...account, client, post };
  }

  it('putRecord of the identical record under an existing key → 200 without commit (no write) → sent, bluesky-record-unchanged', async () => {
    const { post, did } = await directClient();
    const [key, at] = [randomUUID(), new Date()];
    const first = await post('the same record twice', key, at);
    expect(first).toMatchObject({ outcome: 'sent', rule: 'bluesky-record-written' });
    const again = await post('the same record twice', key, at);
    expect(again).toMatchObject({ outcome: 'sent', rule: 'bluesky-record-unchanged', externalId: first.externalId });
    expect(again.evidence).toMatchObject({ unchanged: true, cid: first.evidence!.cid });
    expect((await pds.listPosts(did)).map((r) => r.uri)).toEqual([first.externalId]);
  });

  it('a different record under that key with swapRecord null → 400 InvalidSwap → ambiguous, bluesky-record-exists (never overwritten)', async () => {
    const { post, did } = await directClient();
    const [key, at] = [randomUUID(), new Date()];
    const first = await post('the first record', key, at);
    const other = await post('another record, same key', key, at);
    expect(other).toMatchObject({ outcome: 'ambiguous', rule: 'bluesky-record-exists', httpStatus: 400 });
    expect(other.evidence).toMatchObject({ recordExists: true, uri: first.externalId });
    const records = await pds.listPosts(did);
    expect(records.map((r) => [r.uri, r.value.text])).toEqual([[first.externalId, 'the first record']]);
  });

  it('createRecord on an existing key → 500 InternalServerError → ambiguous, bluesky-internal-error', async () => {
    const { post, did, credentials } = await directClient();
    const first = await post('taken key', randomUUID(), new Date());
    const rkey = first.externalId!.split('/').pop()!;
    const raw = await sendOnce({
      method: 'POST',
      url: `${pds.url}/xrpc/com.atproto.repo.createRecord`,
      headers: { authorization: `Bearer ${credentials.accessToken}` },
      json: {
        repo: did,
        collection: 'app.bsky.feed.post',
        rkey,
        record: { $type: 'app.bsky.feed.post', text: 'created over it', createdAt: new Date().toISOString() },
      },
      timeoutMs: 10_000,
    });
    expect(raw).toMatchObject({ type: 'response', status: 500, body: { error: 'InternalServerError' } });
    expect(classifyBluesky(raw)).toMatchObject({ outcome: 'ambiguous', rule: 'bluesky-internal-error' });
    expect((await pds.listPosts(did)).map((r) => r.value.text)).toEqual(['taken key']);
  });

  it('four identical putRecords at once → one record: one answer written, three unchanged, all sent with its URI', async () => {
    const { post, did } = await directClient();
    const [key, at] = [randomUUID(), new Date()];
    const results = await Promise.all([1, 2, 3, 4].map(() => post('four at once', key, at)));
    const records = await pds.listPosts(did);
    expect(records).toHaveLength(1);
    expect(results.map((r) => [r.outcome, r.externalId])).toEqual(Array(4).fill(['sent', records[0]!.uri]));
    expect(results.map((r) => r.rule).sort()).toEqual([
      'bluesky-record-unchanged',
      'bluesky-record-unchanged',
      'bluesky-record-unchanged',
      'bluesky-record-written',
    ]);
  });
});

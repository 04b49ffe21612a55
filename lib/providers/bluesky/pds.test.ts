import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertMedia } from '@/db/queries/media';
import { reconciliations } from '@/db/schema';
import { checkImage } from '@/lib/media/image';
import { makeImage } from '@/testing/images';
import { createPost } from '@/lib/posts/create';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { attemptCount, schedulePosts } from '@/testing/publisher';
import type { Fault } from '@/testing/wire/fault-proxy';
import { startPdsHarness } from '@/testing/pds/harness';

// Semel's real Bluesky client, publisher and reconciler against the reference PDS (@atproto/pds with a PLC
// directory, on loopback), through a fault proxy that breaks the one write. Copies are counted on the PDS itself
// (listRecords), never through Semel: each delivery must end as exactly one record, `sent` with its URI.

const CALL_TIMEOUT_MS = 4_000;
const { db, pds, proxy, storage, publish, status, settle, connectedAccount, attemptOutcomes, externalUrl } =
  await startPdsHarness({ callTimeoutMs: CALL_TIMEOUT_MS });
const PUT_RECORD = '/xrpc/com.atproto.repo.putRecord';
const puts = () => proxy.exchanges.filter((e) => e.path === PUT_RECORD);

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
      const checks = await db.select().from(reconciliations).where(eq(reconciliations.deliveryId, id!));
      expect(checks).toMatchObject([
        { decision: 'found', strategy: 'bluesky-record-key', evidence: { pds: proxy.url, uri: records[0]!.uri } },
      ]);
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

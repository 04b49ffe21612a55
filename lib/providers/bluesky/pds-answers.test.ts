import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createProviderClient } from '@/lib/providers';
import { sendOnce } from '@/lib/net/send';
import { startPdsHarness } from '@/testing/pds/harness';
import { classifyBluesky } from './classifier';
import type { BlueskyClient } from './client';

// The reference PDS's own answers to the writes a resend can meet, each read by the classifier row that names it
// (the rows' wire cases without a PDS are in classifier.test.ts). Semel's real client, straight to the PDS.

const { pds, connectedAccount } = await startPdsHarness({ callTimeoutMs: 10_000 });

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

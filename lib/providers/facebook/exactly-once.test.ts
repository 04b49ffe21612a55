import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { claimDueDeliveries, recordOutcomes, saveProviderState, startAttempts } from '@/db/queries/deliveries';
import { deliveries, reconciliations, socialAccounts } from '@/db/schema';
import { sha256Hex } from '@/lib/media/media-storage';
import { sendOnce } from '@/lib/net/send';
import { createProviderClient } from '@/lib/providers';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { PublishMedia, PublishResult } from '@/lib/providers/types';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { makeImage } from '@/testing/images';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { testVideoBytes, videoMedia } from '@/testing/videos';
import { FACEBOOK_VIDEO_PROCESSING_MS } from '@/sandbox/dialects/facebook/video';
import type { FaultSettings } from '@/sandbox/store/types';

// I1 on Facebook Pages, through the claim, the real client and the reconciler, against the sandbox's Facebook dialect
// (Postgres store, real sockets; no idempotency and no dedupe there). Every fault — a lost answer to the feed post, the
// photo post or the video's finish, a reset, a 5xx, a 429, processing slower than the call — ends with exactly one post
// on the sandbox's own records, or `needs_review` with the evidence. A lost feed answer is settled by the page's
// published posts (same → sent with that id, similar → review, absent twice → published once more); a lost finish by
// the video's status, never by a second upload (the sandbox's sessions are counted). Text posts go through the
// publisher itself; media posts are the publisher's steps by hand (claim → attempt row → the client → the outcome,
// fenced), with the media the post's rows would give.

const CALL_TIMEOUT_MS = 1_000; // below the sandbox's 2 s hang
const ROOMY_TIMEOUT_MS = 4_000;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

let jpeg: Uint8Array;
let mp4: Uint8Array;
beforeAll(async () => {
  jpeg = await makeImage('jpeg', { width: 48, height: 48 });
  mp4 = await testVideoBytes(1);
});

const reconcile = () => reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
const publish = (timeoutMs = CALL_TIMEOUT_MS) =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: timeoutMs }));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const decisions = async (id: string) =>
  (
    await db
      .select({ decision: reconciliations.decision })
      .from(reconciliations)
      .where(eq(reconciliations.deliveryId, id))
      .orderBy(reconciliations.checkedAt)
  ).map((c) => c.decision);
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
const sessions = async (account: Account) =>
  (
    await db.execute<{ n: number }>(
      sql`select count(*)::int as n from sandbox.tiktok_publishes where account_id = ${account.sandboxAccount.id}`,
    )
  )[0]!.n;
const reviewReason = async (id: string) =>
  (
    await db.execute<{ reason: string | null }>(
      sql`select reason from delivery_events where delivery_id = ${id} and to_status = 'needs_review' limit 1`,
    )
  )[0]?.reason;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withFaults(faults: Partial<FaultSettings>) {
  const account = await sandbox.connectAccount('facebook');
  await sandbox.setFaults(account.sandboxAccount.id, faults);
  return account;
}

async function schedule(account: Account, label = 'facebook') {
  const text = sandbox.uniqueText(label);
  const [id] = await schedulePosts(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    count: 1,
    label: text,
  });
  return { id: id!, text: `${text} #0` };
}

const photo = (): PublishMedia => ({
  id: randomUUID(),
  sha256: sha256Hex(jpeg),
  mimeType: 'image/jpeg',
  altText: '',
  sizeBytes: jpeg.length,
  read: async () => jpeg,
  stream: async () => Readable.from([Buffer.from(jpeg)]),
});

/** A transport that loses the answer to the video's finish: Facebook took it, the answer never came. */
const losingFinish: ProviderTransport = async (request) => {
  const raw = await sendOnce(request);
  if (request.form?.upload_phase !== 'finish') return raw;
  return {
    type: 'error',
    code: 'ETIMEDOUT',
    name: 'TimeoutError',
    message: 'the answer to finish was lost',
    timedOut: true,
    connection: { socketAssigned: true, reused: false, tls: false, connected: true, secured: false, bytesWritten: 300 },
  };
};

/** One attempt as the publisher makes it (publish-due.ts publishOne), with the media the post's rows would give. */
async function attempt(
  account: Account,
  id: string,
  media: PublishMedia[],
  options: { timeoutMs?: number; transport?: ProviderTransport } = {},
): Promise<PublishResult> {
  const claimed = await claimDueDeliveries(db, { workerId: 'facebook-test', limit: 50, leaseMs: 30_000 });
  const claim = claimed.find((c) => c.deliveryId === id);
  expect(claim, 'the delivery is due and claimable').toBeDefined();
  const [started] = await startAttempts(db, { claims: [claim!], minLeaseMs: 0 });
  const client = createProviderClient(
    {
      provider: 'facebook',
      baseUrl: '/api/sandbox/facebook',
      platformUserId: account.platformUserId,
      accessToken: account.token,
    },
    { origin: sandbox.url, transport: options.transport },
  );
  const result = await client.publish({
    text: started!.text,
    kind: 'post',
    idempotencyKey: id,
    timeoutMs: options.timeoutMs ?? ROOMY_TIMEOUT_MS,
    state: started!.providerState,
    media,
    saveState: (state) => saveProviderState(db, { deliveryId: id, generation: claim!.generation, state }),
  });
  await recordOutcomes(db, {
    actor: 'worker:facebook-test',
    outcomes: [
      {
        deliveryId: id,
        generation: claim!.generation,
        attemptId: started!.attemptId,
        outcome: result.outcome,
        status: result.outcome === 'sent' ? 'sent' : result.outcome === 'not_sent' ? 'scheduled' : result.outcome,
        externalId: result.externalId ?? null,
        url: result.url ?? null,
        reason: result.reason,
        httpStatus: result.httpStatus ?? null,
        durationMs: result.durationMs,
        dueAt: result.outcome === 'not_sent' ? (result.retryAt ?? new Date()) : new Date(),
        detail: { rule: result.rule, ...(result.evidence ? { evidence: result.evidence } : {}) },
      },
    ],
  });
  return result;
}

describe('Facebook: a feed post whose answer was lost, settled by the page’s published posts', () => {
  for (const [label, faults] of [
    ['lost answer (timeout after commit)', { timeoutAfterCommit: 1 }],
    ['connection reset after commit', { resetAfterCommit: 1 }],
    ['502 after commit', { errorAfterCommit: 1 }],
  ] as const) {
    it(`I1 — ${label}: ambiguous; the read finds the same post → sent with its id, one copy`, async () => {
      const account = await withFaults(faults);
      const { id, text } = await schedule(account);
      await publish();
      expect((await status(id)).status).toBe('ambiguous');
      await sandbox.setFaults(account.sandboxAccount.id, {});
      await dueNow(id); // the first check falls due after the call's timeout; the fast faults end sooner
      await reconcile();
      const [copy] = await sandbox.allPosts(account.sandboxAccount.id);
      expect(await status(id)).toMatchObject({
        status: 'sent',
        externalId: `${account.platformUserId}_${copy!.id}`,
      });
      expect(await decisions(id)).toEqual(['found']);
      expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    });
  }

  it('I1 — processing slower than the call: ambiguous; the post appears after the timeout and is found → sent, one copy', async () => {
    const account = await withFaults({ processingMs: 1_800 });
    const { id, text } = await schedule(account);
    await publish();
    expect((await status(id)).status).toBe('ambiguous');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0); // not yet: Facebook is still on it
    await sleep(1_500);
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('I2 — nothing arrived (timeout before commit): absent on two reads → released → published once', async () => {
    const account = await withFaults({ timeoutBeforeCommit: 1 });
    const { id, text } = await schedule(account);
    await publish();
    expect((await status(id)).status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck']);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck', 'released']);
    expect((await status(id)).status).toBe('scheduled');
    await publish(ROOMY_TIMEOUT_MS);
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('I1 — a similar post in the window (not ours, not the same) blocks the resend → needs_review with the candidate', async () => {
    const account = await withFaults({ timeoutBeforeCommit: 1 });
    const { id, text } = await schedule(account, 'our spring launch is live on the page today with new prices for all');
    await publish();
    expect((await status(id)).status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    // Someone posted nearly the same words on the page by hand meanwhile.
    await sandbox.store.createPost({ account: account.sandboxAccount, kind: 'post', text: `${text} (edited)` });
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    expect(await reviewReason(id)).toMatch(/close to ours/);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(0);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('I2 — 429 (Graph code 4): not_sent, held a minute, nothing posted; then one post', async () => {
    const account = await withFaults({ rateLimited: 1 });
    const { id, text } = await schedule(account);
    const before = Date.now();
    await publish();
    const held = await status(id);
    expect(held.status).toBe('scheduled');
    const [row] = await db.select({ dueAt: deliveries.dueAt }).from(deliveries).where(eq(deliveries.id, id));
    expect(row!.dueAt!.getTime()).toBeGreaterThanOrEqual(before + 59_000);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(id);
    await publish(ROOMY_TIMEOUT_MS);
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });
});

describe('Facebook: token health', () => {
  it('I2 — a page token Facebook refuses (190): nothing posted, the delivery held and the account marked for a reconnect', async () => {
    const account = await sandbox.connectAccount('facebook');
    await sandbox.store.oauth.revokeAccount(account.sandboxAccount.id);
    const { id } = await schedule(account, 'revoked');
    await publish(ROOMY_TIMEOUT_MS);
    expect((await status(id)).status).toBe('scheduled');
    const [row] = await db
      .select({ tokenStatus: socialAccounts.tokenStatus })
      .from(socialAccounts)
      .where(eq(socialAccounts.id, account.productAccountId));
    expect(row!.tokenStatus).toBe('rejected');
    await publish(ROOMY_TIMEOUT_MS); // held: not claimed again until reconnected
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    expect((await status(id)).status).toBe('scheduled');
  });
});

describe('Facebook: photos', () => {
  it('I1 — three photos, the feed post’s answer lost: the photos are no posts, the one feed post is found → sent', async () => {
    const account = await withFaults({ timeoutAfterCommit: 1 });
    const { id, text } = await schedule(account, 'album');
    const result = await attempt(account, id, [photo(), photo(), photo()], { timeoutMs: CALL_TIMEOUT_MS * 2 });
    expect(result).toMatchObject({ outcome: 'ambiguous', evidence: { step: 'feed' } });
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    const posts = await sandbox.allPosts(account.sandboxAccount.id);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ text });
    expect(posts[0]!.media).toHaveLength(3);
  });

  it('I1 — one photo post, its answer reset: found by its caption → sent, one copy', async () => {
    const account = await withFaults({ resetAfterCommit: 1 });
    const { id, text } = await schedule(account, 'photo');
    expect((await attempt(account, id, [photo()])).outcome).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a multi-photo post with no faults goes out once, through the attempt', async () => {
    const account = await sandbox.connectAccount('facebook');
    const { id, text } = await schedule(account, 'album ok');
    expect((await attempt(account, id, [photo(), photo()])).outcome).toBe('sent');
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });
});

describe('Facebook: a video, settled by its status', () => {
  it('I1 — a lost answer to finish: ambiguous; the status (processing, then published) settles it; one start, one post', async () => {
    const account = await sandbox.connectAccount('facebook');
    const { id, text } = await schedule(account, 'video');
    const result = await attempt(account, id, [videoMedia(mp4)], { transport: losingFinish });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'facebook-video-finish-unknown' });
    await reconcile();
    expect(await decisions(id)).toEqual(['waiting']); // processing: read again later, nothing sent
    await sleep(FACEBOOK_VIDEO_PROCESSING_MS + 300);
    await dueNow(id);
    await reconcile();
    expect(await decisions(id)).toEqual(['waiting', 'found']);
    const [post] = await sandbox.allPosts(account.sandboxAccount.id);
    expect(await status(id)).toMatchObject({ status: 'sent', externalId: `${account.platformUserId}_${post!.id}` });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await sessions(account)).toBe(1);
  });

  for (const [label, faults] of [
    ['reset after the finish committed', { resetAfterCommit: 1 }],
    ['502 after the finish committed', { errorAfterCommit: 1 }],
    ['the finish answered after the call gave up', { timeoutAfterCommit: 1 }],
  ] as const) {
    it(`I1 — ${label}: the status settles it, one start, one post`, async () => {
      const account = await withFaults(faults);
      const { id, text } = await schedule(account, 'video');
      const result = await attempt(account, id, [videoMedia(mp4)], { timeoutMs: CALL_TIMEOUT_MS * 2 });
      expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'facebook-video-finish-unknown' });
      await sandbox.setFaults(account.sandboxAccount.id, {});
      await sleep(FACEBOOK_VIDEO_PROCESSING_MS + 300);
      await reconcile();
      expect((await status(id)).status).toBe('sent');
      expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
      expect(await sessions(account)).toBe(1);
    });
  }

  it('I2 — the finish never arrived (timeout before commit): uploaded, not finished → absent twice → released → the same session is finished once', async () => {
    const account = await withFaults({ timeoutBeforeCommit: 1 });
    const { id, text } = await schedule(account, 'video');
    const result = await attempt(account, id, [videoMedia(mp4)], { timeoutMs: CALL_TIMEOUT_MS * 2 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'facebook-video-finish-unknown' });
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await reconcile();
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck', 'released']);
    const again = await attempt(account, id, [videoMedia(mp4)]);
    expect(again.outcome).toBe('ambiguous'); // finished now, processing
    await sleep(FACEBOOK_VIDEO_PROCESSING_MS + 300);
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await sessions(account)).toBe(1); // one start: the kept session, never a second upload
  });

  it('I1 — processing slower than the call: finish answered, the video still processing → waiting, then found; one start', async () => {
    const account = await withFaults({ processingMs: 1_500 });
    const { id, text } = await schedule(account, 'slow video');
    const result = await attempt(account, id, [videoMedia(mp4)]);
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'facebook-video-processing' });
    await reconcile();
    expect((await status(id)).status).toBe('ambiguous');
    await sleep(1_500 + FACEBOOK_VIDEO_PROCESSING_MS + 300);
    await dueNow(id);
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await sessions(account)).toBe(1);
  });

  it('I2 — 429 on the finish: not_sent (nothing published), the next attempt finishes the same session once', async () => {
    const account = await withFaults({ rateLimited: 1 });
    const { id, text } = await schedule(account, 'video 429');
    const held = await attempt(account, id, [videoMedia(mp4)]);
    expect(held).toMatchObject({ outcome: 'not_sent', rule: 'facebook-rate-limited' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(id);
    expect((await attempt(account, id, [videoMedia(mp4)])).outcome).toBe('ambiguous'); // processing
    await sleep(FACEBOOK_VIDEO_PROCESSING_MS + 300);
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await sessions(account)).toBe(1);
  });
});

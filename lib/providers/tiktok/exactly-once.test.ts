import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  claimDueDeliveries,
  recordOutcomes,
  saveProviderState,
  startAttempts,
  sweepExpiredClaims,
} from '@/db/queries/deliveries';
import { deliveries, reconciliations } from '@/db/schema';
import { sendOnce } from '@/lib/net/send';
import { createProviderClient } from '@/lib/providers';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { PostOptions, PublishResult } from '@/lib/providers/types';
import { reconcileAmbiguousDeliveries, type ReconcileOptions } from '@/lib/reconcile/reconcile';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { testVideoBytes, videoMedia } from '@/testing/videos';
import type { FaultSettings } from '@/sandbox/store/types';

// I1 on TikTok, through the claim, the real client and the reconciler, against the sandbox's TikTok dialect (Postgres
// store, real sockets; no idempotency at all there). Every fault ends with exactly one post on the sandbox's own records,
// or `needs_review` with the evidence, and never a second init. The publisher itself needs a video media row (pending:
// the media table takes images only on this branch), so each attempt here is the publisher's steps by hand: claim →
// attempt row → the client with the video and the post's options → the outcome, fenced.

const CALL_TIMEOUT_MS = 1_000; // below the sandbox's 2 s hang
const ROOMY_TIMEOUT_MS = 4_000;
const VIDEO_URL = 'https://semel.example/api/media/video?sig=test';
let video: Uint8Array;
beforeAll(async () => {
  video = await testVideoBytes();
});
const sandbox = await startTestSandbox({
  hangMs: 2_000,
  fetchImage: async (url) => (url === VIDEO_URL ? video : url.endsWith('not-a-video') ? new Uint8Array(64) : null),
});
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const reconcile = (overrides: Partial<ReconcileOptions> = {}) =>
  reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url, overrides));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const checks = async (id: string) =>
  db
    .select({ decision: reconciliations.decision, evidence: reconciliations.evidence })
    .from(reconciliations)
    .where(eq(reconciliations.deliveryId, id))
    .orderBy(reconciliations.checkedAt);
const decisions = async (id: string) => (await checks(id)).map((c) => c.decision);
const providerState = async (id: string) =>
  (await db.select({ state: deliveries.providerState }).from(deliveries).where(eq(deliveries.id, id)))[0]!.state;
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
/** Every init the sandbox received for the account (a publish each). */
const inits = async (account: Account) =>
  (
    await db.execute<{ n: number }>(
      sql`select count(*)::int as n from sandbox.tiktok_publishes where account_id = ${account.sandboxAccount.id}`,
    )
  )[0]!.n;
/** Why the delivery went to review, as its history says. */
const reviewReason = async (id: string) =>
  (
    await db.execute<{ reason: string | null }>(
      sql`select reason from delivery_events where delivery_id = ${id} and to_status = 'needs_review' limit 1`,
    )
  )[0]?.reason;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function schedule(account: Account) {
  const label = sandbox.uniqueText('tiktok');
  const [id] = await schedulePosts(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    count: 1,
    label,
  });
  return { id: id!, text: `${label} #0` };
}

type Attempt = {
  timeoutMs?: number;
  transport?: ProviderTransport;
  options?: PostOptions;
  videoUrl?: string | null;
};

/** One attempt as the publisher makes it (publish-due.ts publishOne), with the video the media row would give. */
async function attempt(account: Account, id: string, options: Attempt = {}): Promise<PublishResult> {
  const claimed = await claimDueDeliveries(db, { workerId: 'tiktok-test', limit: 50, leaseMs: 30_000 });
  const claim = claimed.find((c) => c.deliveryId === id);
  expect(claim, 'the delivery is due and claimable').toBeDefined();
  const [started] = await startAttempts(db, { claims: [claim!], minLeaseMs: 0 });
  const client = createProviderClient(
    {
      provider: 'tiktok',
      baseUrl: '/api/sandbox/tiktok',
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
    media: [videoMedia(video, options.videoUrl === null ? {} : { publicUrl: options.videoUrl ?? VIDEO_URL })],
    options: options.options ?? { privacy_level: 'PUBLIC_TO_EVERYONE' },
    saveState: (state) => saveProviderState(db, { deliveryId: id, generation: claim!.generation, state }),
  });
  const detail = { rule: result.rule, ...(result.evidence ? { evidence: result.evidence } : {}) };
  const status = result.outcome === 'sent' ? 'sent' : result.outcome === 'not_sent' ? 'scheduled' : result.outcome;
  await recordOutcomes(db, {
    actor: 'worker:tiktok-test',
    outcomes: [
      {
        deliveryId: id,
        generation: claim!.generation,
        attemptId: started!.attemptId,
        outcome: result.outcome,
        status,
        externalId: result.externalId ?? null,
        url: result.url ?? null,
        reason: result.reason,
        httpStatus: result.httpStatus ?? null,
        durationMs: result.durationMs,
        // The tests' reconciler has no quiet period; a not_sent is due again when the platform allows.
        dueAt: result.outcome === 'not_sent' ? (result.retryAt ?? new Date()) : new Date(),
        detail,
      },
    ],
  });
  return result;
}

/** A transport that loses TikTok's answer to every status read: the read happened, the answer never came. */
const losingStatusReads: ProviderTransport = async (request) => {
  const raw = await sendOnce(request);
  if (!request.url.includes('/status/fetch/')) return raw;
  return {
    type: 'error',
    code: 'ETIMEDOUT',
    name: 'TimeoutError',
    message: 'the answer to the status read was lost',
    timedOut: true,
    connection: { socketAssigned: true, reused: false, tls: false, connected: true, secured: false, bytesWritten: 200 },
  };
};

async function withFaults(faults: Partial<FaultSettings>) {
  const account = await sandbox.connectAccount('tiktok');
  await sandbox.setFaults(account.sandboxAccount.id, faults);
  return account;
}

describe('TikTok: an init whose answer was lost', () => {
  for (const [label, faults] of [
    ['lost answer (timeout after commit)', { timeoutAfterCommit: 1 }],
    ['connection reset after commit', { resetAfterCommit: 1 }],
    ['502 after commit', { errorAfterCommit: 1 }],
  ] as const) {
    it(`I1 — ${label}: ambiguous, never a second init; the one public video is found in the list → sent`, async () => {
      const account = await withFaults(faults);
      const { id, text } = await schedule(account);
      const result = await attempt(account, id, { timeoutMs: CALL_TIMEOUT_MS });
      expect(result, result.reason).toMatchObject({ outcome: 'ambiguous', rule: 'tiktok-init-unknown' });
      expect(result.evidence).toMatchObject({ mode: 'direct', listed: true, privacyLevel: 'PUBLIC_TO_EVERYONE' });
      expect(await providerState(id)).toEqual({}); // no publish_id was ever learned
      await sandbox.setFaults(account.sandboxAccount.id, {});
      await sleep(600); // TikTok's processing: the video is listed once it is done
      await reconcile();
      const sent = await status(id);
      expect(sent.status).toBe('sent');
      const [copy] = await sandbox.allPosts(account.sandboxAccount.id);
      expect(sent.externalId).toBe(copy!.id);
      expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
      expect(await inits(account)).toBe(1);
    });
  }

  it('I1 — the video is still processing when the list is read: not found twice is no proof → needs_review, one post', async () => {
    const account = await withFaults({ timeoutAfterCommit: 1, processingMs: 5_000 });
    const { id, text } = await schedule(account);
    expect((await attempt(account, id, { timeoutMs: CALL_TIMEOUT_MS })).rule).toBe('tiktok-init-unknown');
    await reconcile();
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck', 'needs_review']);
    expect((await status(id)).status).toBe('needs_review');
    // The platform's own records: the one post TikTok is still processing, and one init only.
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await inits(account)).toBe(1);
  });

  it('I1 — an upload to the inbox: the inbox cannot be read → needs_review with the evidence, one inbox upload', async () => {
    const account = await withFaults({ timeoutAfterCommit: 1 });
    const { id } = await schedule(account);
    const result = await attempt(account, id, { timeoutMs: CALL_TIMEOUT_MS, options: { post_mode: 'inbox' } });
    expect(result.rule).toBe('tiktok-init-unknown');
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const [check] = await checks(id);
    expect((await reviewReason(id)) ?? '').toMatch(/inbox/);
    expect(check!.evidence).toMatchObject({ mode: 'inbox', publishId: null });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    expect(await inits(account)).toBe(1);
  });

  it('I1 — a private (SELF_ONLY) post is never listed → needs_review, one post', async () => {
    const account = await withFaults({ timeoutAfterCommit: 1 });
    const { id, text } = await schedule(account);
    await attempt(account, id, { timeoutMs: CALL_TIMEOUT_MS, options: { privacy_level: 'SELF_ONLY' } });
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    expect((await checks(id))[0]!.evidence).toMatchObject({ privacyLevel: 'SELF_ONLY' });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await inits(account)).toBe(1);
  });

  it('I2 — a FILE_UPLOAD init without an answer sent no byte: not_sent, the next attempt posts once', async () => {
    const account = await withFaults({ timeoutAfterCommit: 1 });
    const { id, text } = await schedule(account);
    const lost = await attempt(account, id, { timeoutMs: CALL_TIMEOUT_MS, videoUrl: null });
    expect(lost).toMatchObject({ outcome: 'not_sent', rule: 'tiktok-upload-init-unknown' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    expect((await attempt(account, id, { videoUrl: null })).outcome).toBe('sent');
    expect((await status(id)).status).toBe('sent');
    // Two publishes on TikTok, one of them an upload that never got its bytes and never became a post.
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await inits(account)).toBe(2);
  });
});

describe('TikTok: the kept publish_id is the evidence', () => {
  it('I1 — the answer to the status read is lost: ambiguous with the publish_id; the reconciler reads it → sent', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { id, text } = await schedule(account);
    const result = await attempt(account, id, { transport: losingStatusReads });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'tiktok-status-unreadable' });
    const state = await providerState(id);
    expect(state).toMatchObject({ publishId: expect.stringMatching(/^v_pub/), mode: 'direct' });
    await sleep(600);
    await reconcile();
    expect(await status(id)).toMatchObject({
      status: 'sent',
      externalId: (await sandbox.allPosts(account.sandboxAccount.id))[0]!.id,
    });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await inits(account)).toBe(1);
  });

  it('I1 — processing slower than the attempt: ambiguous, read again while PROCESSING, then sent; one init', async () => {
    const account = await withFaults({ processingMs: 2_500 });
    const { id, text } = await schedule(account);
    const result = await attempt(account, id, { timeoutMs: CALL_TIMEOUT_MS });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'tiktok-processing' });
    expect(result.evidence).toMatchObject({ status: 'PROCESSING_DOWNLOAD' });
    await reconcile();
    expect((await status(id)).status).toBe('ambiguous'); // still processing: read again later
    await sleep(3_000);
    await dueNow(id);
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect(await decisions(id)).toEqual(['waiting', 'found']);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await inits(account)).toBe(1);
  });

  it('I1 — FAILED while unknown: absent twice → released → the next attempt reads FAILED and fails; never a second init', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { id } = await schedule(account);
    const unknown = await attempt(account, id, {
      transport: losingStatusReads,
      videoUrl: 'https://semel.example/not-a-video',
    });
    expect(unknown.outcome).toBe('ambiguous');
    await reconcile();
    await reconcile();
    expect(await decisions(id)).toEqual(['not_found_recheck', 'released']);
    const failed = await attempt(account, id);
    expect(failed).toMatchObject({ outcome: 'failed', rule: 'tiktok-publish-failed' });
    expect(failed.reason).toContain('file_format_check_failed');
    expect((await status(id)).status).toBe('failed');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    expect(await inits(account)).toBe(1);
  });

  it('I4 — the claim is lost while init runs: the publish_id is not saved (fenced), nothing more is written, one post', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { id, text } = await schedule(account);
    // The worker stalls past its lease while TikTok answers init; another process's sweeper takes the delivery.
    const stalling: ProviderTransport = async (request) => {
      const raw = await sendOnce(request);
      if (request.url.includes('/video/init/')) {
        await db.execute(
          sql`update claims set lease_expires_at = now() - interval '1 second' where delivery_id = ${id}`,
        );
        expect(await sweepExpiredClaims(db)).toMatchObject({ ambiguous: expect.any(Number) });
      }
      return raw;
    };
    const result = await attempt(account, id, { transport: stalling });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'tiktok-claim-lost-after-init' });
    expect(result.evidence).toMatchObject({ publishId: expect.stringMatching(/^v_pub/) });
    expect(await providerState(id)).toEqual({}); // the save under the lost claim was refused
    expect((await status(id)).status).toBe('ambiguous'); // the sweeper's doing; the stale outcome wrote nothing
    // No publish_id and no init evidence reached the delivery: nothing can be read back → review, never a second init.
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    expect(await reviewReason(id)).toMatch(/left no publish_id/);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await inits(account)).toBe(1);
  });
});

describe('TikTok: refusals before anything is made', () => {
  it('I2 — 429 on init: not_sent, held about a minute, then one post', async () => {
    const account = await withFaults({ rateLimited: 1 });
    const { id, text } = await schedule(account);
    const before = Date.now();
    const held = await attempt(account, id);
    expect(held).toMatchObject({ outcome: 'not_sent', rule: 'tiktok-rate-limited', httpStatus: 429 });
    expect(held.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 59_000);
    expect(await inits(account)).toBe(0);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(id);
    expect((await attempt(account, id)).outcome).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await inits(account)).toBe(1);
  });

  it('I2 — a timeout before commit on init: ambiguous (it may have run), and the list settles it', async () => {
    const account = await withFaults({ timeoutBeforeCommit: 1 });
    const { id } = await schedule(account);
    expect((await attempt(account, id, { timeoutMs: CALL_TIMEOUT_MS })).rule).toBe('tiktok-init-unknown');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await reconcile();
    await reconcile();
    // Nothing was made, but nothing can prove it: review, never a second init.
    expect((await status(id)).status).toBe('needs_review');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    expect(await inits(account)).toBe(0);
  });
});

describe('TikTok through the publisher', () => {
  // A post with its video and options goes out through the API and the publisher in through-api.test.ts; here, one
  // without its video (made below the API's checks) fails clearly, and nothing reaches TikTok.
  it('I2 — a TikTok post without a video fails with a reason; no init is made', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { id } = await schedule(account);
    await publishDueDeliveries(db, testPublisherOptions(sandbox.url));
    expect((await status(id)).status).toBe('failed');
    expect(await reviewReason(id)).toBeUndefined();
    expect(await inits(account)).toBe(0);
  });
});

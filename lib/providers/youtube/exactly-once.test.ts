import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, reconciliations } from '@/db/schema';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { sendOnce, type HttpRequest } from '@/lib/net/send';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { RawOutcome } from '@/lib/providers/types';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { SANDBOX_PROJECT, YOUTUBE_DAILY_QUOTA } from '@/sandbox/dialects/youtube/api';
import { pacificDay } from '@/sandbox/dialects/youtube/uploads';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { storedVideo } from '@/testing/media';
import { attemptCount, deliveryStates, schedulePostWithMedia, testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { makeTestVideo } from '@/testing/video';

// I1 on YouTube, end to end: the publisher, the reconciler and the real client against the sandbox's YouTube dialect
// (Postgres store, real sockets; no idempotency there: every session start is a session, every complete session a
// video), with the video stored by the app and streamed from storage in chunks. Every fault ends with exactly one video
// on the channel, and the sandbox's own records show one session that ever received a byte per delivery — never a
// second videos.insert once a session was known. (A session start whose answer was lost leaves a session nobody can
// send a byte to; it can never become a video, and is counted apart.)

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-youtube-media-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(mediaDir);

const CALL_TIMEOUT_MS = 1_000; // below the sandbox's 2 s hang
const ROOMY_TIMEOUT_MS = 6_000;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;
// One project's quota (six uploads a day) for every account, as on Google: each test starts a new day.
beforeEach(async () => {
  await db.execute(sql`delete from sandbox.youtube_quota`);
});

const publish = (overrides: Parameters<typeof testPublisherOptions>[1] = {}) =>
  publishDueDeliveries(
    db,
    testPublisherOptions(sandbox.url, { callTimeoutMs: ROOMY_TIMEOUT_MS, mediaStorage: storage, ...overrides }),
  );
/** A reconciler pass with the ambiguous delivery due now (the tests' reconciler has no processing allowance). */
async function reconcile(id: string) {
  await dueNow(id);
  return reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
}
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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sandbox's own records: every session the account's uploads started, and its live videos. */
async function onPlatform(account: Account) {
  const sessions = await sandbox.store.listYoutubeUploads(account.sandboxAccount.id);
  const videos = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => !p.deletedAt);
  return {
    videos,
    /** Sessions that ever received a byte: one per delivery, whatever happened. */
    uploading: sessions.filter((s) => s.uploadedBytes > 0),
    /** Sessions nobody could ever send a byte to (their start's answer was lost): never videos. */
    empty: sessions.filter((s) => s.uploadedBytes === 0 && s.postId === null),
    all: sessions,
  };
}

let clip: string | undefined;
let vertical: string | undefined;
/** A video due now on the account (a real MP4 stored by the app), in `format` if given. */
async function schedule(account: Account, options: { format?: string; vertical?: boolean } = {}) {
  clip ??= await makeTestVideo(path.join(mediaDir, 'clip.mp4'), { seconds: 2 });
  vertical ??= await makeTestVideo(path.join(mediaDir, 'short.mp4'), { seconds: 3, width: 360, height: 640 });
  const video = await storedVideo(db, storage, account.workspaceId, options.vertical ? vertical : clip);
  const text = sandbox.uniqueText('youtube launch');
  const id = await schedulePostWithMedia(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    text,
    mediaIds: [video.id],
  });
  if (options.format) await db.update(deliveries).set({ format: options.format }).where(eq(deliveries.id, id));
  return { id, text, video };
}

const isStart = (r: HttpRequest) => r.method === 'POST' && r.url.includes('/upload/youtube/v3/videos');
const isQuery = (r: HttpRequest) => r.method === 'PUT' && (r.headers?.['content-range'] ?? '').includes('*/');
const isFinalChunk = (r: HttpRequest) => {
  const range = /^bytes \d+-(\d+)\/(\d+)$/.exec(r.headers?.['content-range'] ?? '');
  return r.method === 'PUT' && range !== null && Number(range[1]) === Number(range[2]) - 1;
};
const LOST: Record<'timeout' | 'reset', RawOutcome> = {
  timeout: {
    type: 'error',
    code: 'ETIMEDOUT',
    name: 'TimeoutError',
    message: 'the answer never came',
    timedOut: true,
    connection: { socketAssigned: true, reused: false, tls: false, connected: true, secured: false, bytesWritten: 900 },
  },
  reset: {
    type: 'error',
    code: 'ECONNRESET',
    name: 'Error',
    message: 'socket hang up',
    timedOut: false,
    connection: { socketAssigned: true, reused: false, tls: false, connected: true, secured: false, bytesWritten: 900 },
  },
};
/** The request reaches the sandbox and is carried out; for `times` matching requests its answer is replaced. */
function losing(match: (r: HttpRequest) => boolean, answer: RawOutcome | number, times = 1): ProviderTransport {
  let left = times;
  return async (request) => {
    const raw = await sendOnce(request);
    if (left <= 0 || !match(request)) return raw;
    left--;
    if (typeof answer !== 'number') return answer;
    const body = { error: { code: answer, message: 'Backend Error', errors: [{ reason: 'backendError' }] } };
    return { type: 'response', status: answer, headers: {}, body, bodyText: JSON.stringify(body) };
  };
}

describe('YouTube through the publisher: one session, one video', () => {
  it('I1 — a video goes out once: one session, its URI kept on the delivery, the stored bytes on the channel', async () => {
    const account = await sandbox.connectAccount('youtube');
    const { id, text, video } = await schedule(account);
    await publish();
    const sent = await status(id);
    expect(sent.status).toBe('sent');
    const platform = await onPlatform(account);
    expect(platform.all).toHaveLength(1);
    expect(platform.videos).toHaveLength(1);
    expect(platform.videos[0]).toMatchObject({ id: sent.externalId, text });
    expect(platform.all[0]).toMatchObject({ uploadedBytes: video.size, title: text.split('\n')[0] });
    // The video's cover frame became its custom thumbnail (thumbnails.set), after the video existed.
    expect(video.coverSha256).toBeTruthy();
    expect(platform.all[0]!.thumbnailSha256).toBe(video.coverSha256);
    const [row] = await db.select({ state: deliveries.providerState }).from(deliveries).where(eq(deliveries.id, id));
    expect(row!.state).toMatchObject({ sessionUri: expect.stringContaining(platform.all[0]!.id) });
    expect(await attemptCount(db, id)).toBe(1);
  });

  it('I1 — a Short (a vertical video, format short) goes out once, linked as a Short', async () => {
    const account = await sandbox.connectAccount('youtube');
    const { id } = await schedule(account, { format: 'short', vertical: true });
    await publish();
    const sent = await status(id);
    expect(sent.status).toBe('sent');
    const [row] = await db.select({ url: deliveries.externalUrl }).from(deliveries).where(eq(deliveries.id, id));
    expect(row!.url).toBe(`https://www.youtube.com/shorts/${sent.externalId}`);
    const platform = await onPlatform(account);
    expect(platform.all).toHaveLength(1);
    expect(platform.videos).toHaveLength(1);
  });
});

describe('YouTube: every fault ends with exactly one video, or review with the evidence', () => {
  it('I1 — the session start’s answer is lost: not_sent (no byte can follow), the next attempt uploads once', async () => {
    const account = await sandbox.connectAccount('youtube');
    const { id } = await schedule(account);
    await publish({ transport: losing(isStart, LOST.timeout) });
    expect((await status(id)).status).toBe('scheduled');
    await dueNow(id);
    await publish();
    expect((await status(id)).status).toBe('sent');
    const platform = await onPlatform(account);
    expect(platform.videos).toHaveLength(1);
    expect(platform.uploading).toHaveLength(1);
    expect(platform.empty).toHaveLength(1); // the lost one: no URI, no byte, never a video
  });

  for (const [label, answer] of [
    ['timeout', LOST.timeout],
    ['connection reset', LOST.reset],
    ['502', 502],
  ] as const)
    it(`I1 — the last chunk’s answer is lost (${label}) and so is the session query: ambiguous → the session says the video exists → sent`, async () => {
      const account = await sandbox.connectAccount('youtube');
      const { id } = await schedule(account);
      const both = (r: HttpRequest) => isFinalChunk(r) || isQuery(r);
      await publish({ transport: losing(both, answer, 10) });
      const ambiguous = await status(id);
      expect(ambiguous.status).toBe('ambiguous');
      await reconcile(id);
      expect(await decisions(id)).toEqual(['found']);
      const platform = await onPlatform(account);
      expect(await status(id)).toMatchObject({ status: 'sent', externalId: platform.videos[0]!.id });
      expect(platform.videos).toHaveLength(1);
      expect(platform.all).toHaveLength(1);
      expect(await attemptCount(db, id)).toBe(1);
    });

  it('I1 — the last chunk never arrived (reset before YouTube took it): the session says 308 twice → released → the same session finishes', async () => {
    const account = await sandbox.connectAccount('youtube');
    const { id } = await schedule(account);
    // The chunk is dropped on the way (the sandbox never sees it), and the query within the attempt is lost too.
    let drops = 1;
    const dropping: ProviderTransport = async (request) => {
      if (isFinalChunk(request) && drops-- > 0) return LOST.reset;
      if (isQuery(request)) return LOST.timeout;
      return sendOnce(request);
    };
    await publish({ transport: dropping });
    expect((await status(id)).status).toBe('ambiguous');
    await reconcile(id);
    await reconcile(id);
    expect(await decisions(id)).toEqual(['not_found_recheck', 'released']);
    await publish();
    expect((await status(id)).status).toBe('sent');
    const platform = await onPlatform(account);
    expect(platform.all).toHaveLength(1);
    expect(platform.videos).toHaveLength(1);
  });

  it('I1 — a 5xx on the session start (the session was made): not_sent; later one upload', async () => {
    const account = await sandbox.connectAccount('youtube');
    await sandbox.setFaults(account.sandboxAccount.id, { errorAfterCommit: 1 });
    const { id } = await schedule(account);
    await publish();
    expect((await status(id)).status).toBe('scheduled');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(id);
    await publish();
    expect((await status(id)).status).toBe('sent');
    const platform = await onPlatform(account);
    expect(platform.videos).toHaveLength(1);
    expect(platform.uploading).toHaveLength(1);
    expect(platform.empty).toHaveLength(1);
  });

  it('I1 — 429: deferred with YouTube’s retry time, never failed; then once', async () => {
    const account = await sandbox.connectAccount('youtube');
    await sandbox.setFaults(account.sandboxAccount.id, { rateLimited: 1 });
    const { id } = await schedule(account);
    await publish();
    const deferred = await status(id);
    expect(deferred.status).toBe('scheduled');
    expect((await onPlatform(account)).all).toHaveLength(0); // refused before anything was made
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(id);
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect((await onPlatform(account)).videos).toHaveLength(1);
  });

  it('I1 — the day’s quota is spent: deferred to midnight Pacific (a rate limit, never failed), nothing started', async () => {
    const account = await sandbox.connectAccount('youtube');
    await sandbox.store.spendYoutubeQuota({
      project: SANDBOX_PROJECT,
      day: pacificDay(new Date()),
      units: YOUTUBE_DAILY_QUOTA - 1_000,
      limit: YOUTUBE_DAILY_QUOTA,
    });
    const { id } = await schedule(account);
    await publish();
    expect((await status(id)).status).toBe('scheduled');
    const [row] = await db.select({ dueAt: deliveries.dueAt }).from(deliveries).where(eq(deliveries.id, id));
    expect(row!.dueAt.getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect((await onPlatform(account)).all).toHaveLength(0);
    // The next Pacific day: the quota is back, and the delivery goes out once.
    await db.execute(sql`delete from sandbox.youtube_quota`);
    await dueNow(id);
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect((await onPlatform(account)).videos).toHaveLength(1);
  });

  it('I1 — processing slower than the call timeout: ambiguous, the reconciler waits for the session, then sent; one video', async () => {
    const account = await sandbox.connectAccount('youtube');
    await sandbox.setFaults(account.sandboxAccount.id, { processingMs: 2_500 });
    const { id } = await schedule(account);
    await publish({ callTimeoutMs: CALL_TIMEOUT_MS });
    expect((await status(id)).status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await reconcile(id);
    expect((await status(id)).status).toBe('ambiguous'); // still finishing: read again, never sent again
    await sleep(2_500);
    await dueNow(id);
    await reconcile(id);
    expect((await status(id)).status).toBe('sent');
    const platform = await onPlatform(account);
    expect(platform.all).toHaveLength(1);
    expect(platform.videos).toHaveLength(1);
  });

  it('I1 — the session expired after its last chunk and the uploads playlist shows nothing: needs_review, never a second upload', async () => {
    const account = await sandbox.connectAccount('youtube');
    const { id } = await schedule(account);
    // The last chunk's bytes never reach YouTube, the attempt learns nothing, and the session then expires.
    const dropping: ProviderTransport = async (request) =>
      isFinalChunk(request) ? LOST.timeout : isQuery(request) ? LOST.timeout : sendOnce(request);
    await publish({ transport: dropping });
    expect((await status(id)).status).toBe('ambiguous');
    await db.execute(sql`delete from sandbox.youtube_uploads where account_id = ${account.sandboxAccount.id}`);
    await reconcile(id);
    const review = await status(id);
    expect(review.status).toBe('needs_review');
    const [check] = await db
      .select({ evidence: reconciliations.evidence })
      .from(reconciliations)
      .where(eq(reconciliations.deliveryId, id));
    expect(check!.evidence).toMatchObject({ session: 'gone', same: [], similar: [] });
    expect((await onPlatform(account)).all).toHaveLength(0);
  });
});

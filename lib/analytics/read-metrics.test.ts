import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimDueMetricReads, recordMetricReadings } from '@/db/queries/post-metrics';
import { createWebhookEndpoint } from '@/db/queries/webhooks';
import { followerSnapshots, metricSnapshots, postMetrics, webhookEvents } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { holdLock, untilBlocked } from '@/testing/race';
import { schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { MISSING_CONFIRM_MS, readDueMetrics, type MetricsJobOptions } from './read-metrics';
import { DEFAULT_READ_DELAYS_MS, nextReading } from './schedule';

// The metrics job (docs/analytics.md#the-metrics-job) against the sandbox through the real publisher and clients: each
// sent post is read at its due readings, once each however many runs race; a deleted post stops being read and is
// marked so; reads wait while publishing holds the account's budget; one metrics.updated event per claimed batch and
// workspace, in the transaction that records its readings.

const sandbox = await startTestSandbox();
const { db } = sandbox;
const HOUR = 3_600_000;

const options = (overrides: Partial<MetricsJobOptions> = {}): MetricsJobOptions => ({
  workerId: `metrics-${randomUUID().slice(0, 8)}`,
  batchSize: 50,
  leaseMs: 30_000,
  readTimeoutMs: 2_000,
  delaysMs: DEFAULT_READ_DELAYS_MS,
  maxFailures: 5,
  budgetMs: 10_000,
  readBudget: { rateLimits: {}, reservedShare: 0.5 },
  encryptionKey: TEST_ENCRYPTION_KEY,
  origin: sandbox.url,
  ...overrides,
});

/** `count` posts published on a new account through the real publisher; their delivery ids. */
async function published(platform: 'x' | 'mastodon' | 'bluesky', count: number) {
  const a = await sandbox.connectAccount(platform);
  const ids = await schedulePosts(db, {
    workspaceId: a.workspaceId,
    accountId: a.productAccountId,
    count,
    label: sandbox.uniqueText('metrics'),
  });
  expect((await publishDueDeliveries(db, testPublisherOptions(sandbox.url))).sent).toBeGreaterThanOrEqual(count);
  return { a, ids };
}

/** Everything about these deliveries happened `ms` earlier: their publishing, and their copies on the platform. */
async function age(ids: string[], ms: number) {
  const list = sql`(select unnest(${`{${ids.join(',')}}`}::uuid[]))`;
  const by = sql`${`${ms} milliseconds`}::interval`;
  await db.execute(sql`update attempts set started_at = started_at - ${by} where delivery_id in ${list}`);
  await db.execute(sql`update deliveries set settled_at = settled_at - ${by} where id in ${list}`);
  await db.execute(sql`update post_metrics set published_at = published_at - ${by},
    next_due_at = next_due_at - ${by} where delivery_id in ${list}`);
  // The platform's copy: by its id, or (Bluesky) by the record key at the end of its at:// URI.
  await db.execute(sql`update sandbox.posts set created_at = created_at - ${by}
    where id in (select external_id::bigint from deliveries where id in ${list} and external_id ~ '^[0-9]+$')
      or record_key in (select split_part(external_id, '/', 5) from deliveries where id in ${list} and external_id like 'at://%')`);
}

/** An endpoint subscribed to metrics.updated (an event is written only for a type some endpoint takes). */
const subscribeToMetrics = (workspaceId: string) =>
  createWebhookEndpoint(db, {
    id: randomUUID(),
    workspaceId,
    url: 'https://hooks.example/semel',
    secretSealed: 'not-used-here',
    events: ['metrics.updated'],
  });

const snapshotsOf = (ids: string[]) =>
  db
    .select()
    .from(metricSnapshots)
    .where(sql`${metricSnapshots.deliveryId} = any(${`{${ids.join(',')}}`}::uuid[])`)
    .orderBy(metricSnapshots.deliveryId, metricSnapshots.reading);

describe('the metrics job', () => {
  it('reads each sent post at +1 h through its network’s fields; a re-run writes no duplicate snapshot', async () => {
    const { a, ids } = await published('x', 3);
    // Not yet an hour old: nothing is due.
    await readDueMetrics(db, options());
    expect(await snapshotsOf(ids)).toHaveLength(0);
    await age(ids, 2 * HOUR);
    await readDueMetrics(db, options());
    const snapshots = await snapshotsOf(ids);
    expect(snapshots.map((s) => s.reading)).toEqual([0, 0, 0]);
    // The numbers are the platform's, through X's public_metrics: views, likes, reposts, replies, quotes, saves.
    for (const s of snapshots) {
      const externalId = (
        await db.execute<{ e: string }>(sql`select external_id as e from deliveries where id = ${s.deliveryId}`)
      ).at(0)!.e;
      const post = (await sandbox.store.getPost(externalId))!;
      const model = engagementOf(post, 'x', s.takenAt);
      expect(s.views).toBeGreaterThan(0);
      expect(Math.abs(s.views! - model.views)).toBeLessThanOrEqual(2);
      expect(Math.abs(s.likes! - model.likes)).toBeLessThanOrEqual(1);
      expect(s.views).toBeGreaterThanOrEqual(s.likes!);
      expect(s.clicks).toBeNull(); // X gives no clicks in public_metrics: absent, not 0
    }
    const rows = await db.select().from(postMetrics).where(eq(postMetrics.accountId, a.productAccountId));
    expect(rows.every((r) => r.nextReading === 1 && r.likes !== null && r.engagement! >= r.likes!)).toBe(true);
    // Again, and again in parallel: nothing new is due, nothing is written twice.
    await Promise.all([readDueMetrics(db, options()), readDueMetrics(db, options())]);
    expect(await snapshotsOf(ids)).toHaveLength(3);
  });

  it('racing runners record each due reading once', async () => {
    const { ids } = await published('mastodon', 4);
    await age(ids, 2 * HOUR);
    const runs = await Promise.all(Array.from({ length: 4 }, () => readDueMetrics(db, options({ batchSize: 2 }))));
    expect(runs.reduce((n, r) => n + r.recorded, 0)).toBe(4);
    await age(ids, 24 * HOUR);
    const again = await Promise.all(Array.from({ length: 4 }, () => readDueMetrics(db, options({ batchSize: 2 }))));
    expect(again.reduce((n, r) => n + r.recorded, 0)).toBe(4);
    const snapshots = await snapshotsOf(ids);
    expect(snapshots.map((s) => s.reading).sort()).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    // Mastodon gives favourites, boosts and replies; no views, quotes, saves or clicks.
    expect(snapshots.every((s) => s.likes !== null && s.views === null && s.saves === null)).toBe(true);
  });

  it('a reader whose lease lapsed records nothing once another took the reading over (fenced by generation)', async () => {
    const { ids } = await published('x', 1);
    await readDueMetrics(db, options({ batchSize: 0 })); // adds the row, claims nothing
    await age(ids, 2 * HOUR);
    const [stale] = await claimDueMetricReads(db, { workerId: 'stale', limit: 10, leaseMs: 30_000 });
    await db.execute(
      sql`update post_metrics set lease_expires_at = now() - interval '1 second' where delivery_id = ${ids[0]}`,
    );
    const [fresh] = await claimDueMetricReads(db, { workerId: 'fresh', limit: 10, leaseMs: 30_000 });
    expect(fresh!.generation).toBe(stale!.generation + 1);
    const reading = (r: typeof stale, likes: number) => ({
      deliveryId: r!.deliveryId,
      generation: r!.generation,
      reading: 0,
      readingAt: r!.readingAt,
      metrics: { likes },
      engagement: likes,
      next: null,
    });
    expect(await recordMetricReadings(db, [reading(fresh, 7)])).toHaveLength(1);
    expect(await recordMetricReadings(db, [reading(stale, 99)])).toHaveLength(0);
    expect((await snapshotsOf(ids)).map((s) => s.likes)).toEqual([7]);
    // The constraint holds even for a writer that skips the fence.
    await expect(
      db.insert(metricSnapshots).values({
        workspaceId: fresh!.workspaceId,
        deliveryId: fresh!.deliveryId,
        reading: 0,
        readingAt: fresh!.readingAt,
        likes: 1,
      }),
    ).rejects.toMatchObject({ cause: { constraint_name: 'metric_snapshots_delivery_reading_uq' } });
  });

  it('a post deleted on the platform stops being read and is marked deleted', async () => {
    const { a, ids } = await published('x', 2);
    await age(ids, 2 * HOUR);
    await readDueMetrics(db, options());
    const [gone] = await db.execute<{ e: string }>(sql`select external_id as e from deliveries where id = ${ids[0]}`);
    await sandbox.store.deletePost(a.sandboxAccount.id, gone!.e);
    await age(ids, 24 * HOUR);
    const run = await readDueMetrics(db, options());
    expect(run.deleted).toBe(1);
    const [row] = await db.select().from(postMetrics).where(eq(postMetrics.deliveryId, ids[0]!));
    expect(row).toMatchObject({ stoppedReason: 'deleted', nextDueAt: null });
    expect(row!.stoppedAt).toBeInstanceOf(Date);
    // Much later, every reading long due: the deleted post is never claimed again; the other is.
    await age(ids, 40 * 24 * HOUR);
    await readDueMetrics(db, options());
    expect((await snapshotsOf([ids[0]!])).map((s) => s.reading)).toEqual([0]);
    expect((await snapshotsOf([ids[1]!])).map((s) => s.reading)).toEqual([0, 1, 3]);
  });

  it('Bluesky: a post left out of getPosts (the AppView lags) is deleted only when a read a delay later misses it too', async () => {
    const { a, ids } = await published('bluesky', 1);
    await age(ids, 2 * HOUR);
    const metricsOf = async () => (await db.select().from(postMetrics).where(eq(postMetrics.deliveryId, ids[0]!)))[0]!;
    // The AppView has not indexed it yet (a minute behind, the post written just now): left out, not deleted.
    await db.execute(sql`update sandbox.posts set created_at = now() where account_id = ${a.sandboxAccount.id}`);
    await sandbox.setFaults(a.sandboxAccount.id, { readLagMs: 60_000 });
    expect(await readDueMetrics(db, options())).toMatchObject({ deleted: 0, recorded: 0 });
    const missed = await metricsOf();
    expect(missed).toMatchObject({ stoppedReason: null, failures: 0 });
    expect(missed.missedAt).toBeInstanceOf(Date);
    expect(missed.nextDueAt!.getTime() - missed.missedAt!.getTime()).toBeGreaterThanOrEqual(MISSING_CONFIRM_MS - 1_000);
    // Indexed by the next read: recorded, and the miss forgotten.
    await sandbox.setFaults(a.sandboxAccount.id, { readLagMs: 0 });
    await db.execute(sql`update post_metrics set next_due_at = now() where delivery_id = ${ids[0]}`);
    expect(await readDueMetrics(db, options())).toMatchObject({ recorded: 1 });
    expect(await metricsOf()).toMatchObject({ missedAt: null, stoppedReason: null });
    // Deleted: the first miss waits; a miss more than the delay later ends reading.
    const [row] = await db.execute<{ e: string }>(sql`select external_id as e from deliveries where id = ${ids[0]}`);
    await sandbox.store.deletePost(
      a.sandboxAccount.id,
      (await sandbox.store.getPostByRecordKey(a.sandboxAccount.id, row!.e.split('/').at(-1)!))!.id,
    );
    await age(ids, 24 * HOUR);
    expect(await readDueMetrics(db, options())).toMatchObject({ deleted: 0 });
    expect((await metricsOf()).stoppedReason).toBeNull();
    await db.execute(sql`update post_metrics set missed_at = missed_at - ${`${MISSING_CONFIRM_MS + 1_000} milliseconds`}::interval,
      next_due_at = now() where delivery_id = ${ids[0]}`);
    expect(await readDueMetrics(db, options())).toMatchObject({ deleted: 1 });
    expect(await metricsOf()).toMatchObject({ stoppedReason: 'deleted', nextDueAt: null });
  });

  it('Instagram: a first comment (part 1) is never read — its row is added stopped, unsupported', async () => {
    const a = await sandbox.connectAccount('instagram');
    const [post] = await db.execute<{ id: string }>(sql`
      insert into posts (workspace_id, text, first_comment, scheduled_at, source, idempotency_key)
      values (${a.workspaceId}, 'With a comment', 'The comment', now(), 'api', ${randomUUID()}) returning id`);
    const parts = await db.execute<{ id: string; part: number }>(sql`
      insert into deliveries (workspace_id, post_id, account_id, part, due_at, status, settled_at, external_id)
      select ${a.workspaceId}, ${post!.id}, ${a.productAccountId}, part, now(), 'sent', now(), 'ig-' || part
      from generate_series(0, 1) part returning id, part`);
    await readDueMetrics(db, options({ batchSize: 0 }));
    const rows = await db
      .select()
      .from(postMetrics)
      .where(
        sql`${postMetrics.deliveryId} in (${sql.join(
          [...parts].map((p) => sql`${p.id}`),
          sql`, `,
        )})`,
      );
    const byPart = new Map([...parts].map((p) => [p.part, rows.find((r) => r.deliveryId === p.id)]));
    expect(byPart.get(0)).toMatchObject({ stoppedReason: null, nextDueAt: expect.any(Date) });
    expect(byPart.get(1)).toMatchObject({ stoppedReason: 'unsupported', nextDueAt: null });
  });

  it('a disconnected account is not read: its readings wait, and end once the post is past its last reading', async () => {
    const { a, ids } = await published('x', 1);
    await age(ids, 2 * HOUR);
    await db.execute(sql`update social_accounts set disconnected_at = now() where id = ${a.productAccountId}`);
    await readDueMetrics(db, options());
    expect(await snapshotsOf(ids)).toHaveLength(0);
    const [waiting] = await db.select().from(postMetrics).where(eq(postMetrics.deliveryId, ids[0]!));
    expect(waiting!.nextDueAt!.getTime()).toBeGreaterThan(Date.now() + 5 * HOUR);
    expect(waiting!.stoppedReason).toBeNull();
    await age(ids, 40 * 24 * HOUR);
    await db.execute(sql`update post_metrics set next_due_at = now() where delivery_id = ${ids[0]}`);
    await readDueMetrics(db, options());
    const [ended] = await db.select().from(postMetrics).where(eq(postMetrics.deliveryId, ids[0]!));
    expect(ended).toMatchObject({ stoppedReason: 'done', nextDueAt: null });
    expect(await snapshotsOf(ids)).toHaveLength(0);
  });

  it('reads wait while publishing holds the account’s budget, and publishing still goes first', async () => {
    // Four calls an hour per account, half kept for publishing: reads may spend two.
    const readBudget = { rateLimits: { sandbox: { max: 4, windowSeconds: 3600 } }, reservedShare: 0.5 };
    const a = await sandbox.connectAccount('mastodon');
    const ids = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 3,
      label: sandbox.uniqueText('budget'),
    });
    expect(
      (await publishDueDeliveries(db, testPublisherOptions(sandbox.url, { rateLimits: readBudget.rateLimits }))).sent,
    ).toBe(3);
    await readDueMetrics(db, options({ batchSize: 0 }));
    await db.execute(sql`update post_metrics set next_due_at = now() where account_id = ${a.productAccountId}`);
    // Three attempts in the window: more than reads may ever take. Every reading waits, none is read.
    const run = await readDueMetrics(db, options({ readBudget }));
    expect(run.deferred).toBeGreaterThanOrEqual(3);
    expect(await snapshotsOf(ids)).toHaveLength(0);
    const rows = await db.select().from(postMetrics).where(eq(postMetrics.accountId, a.productAccountId));
    expect(rows.every((r) => r.nextDueAt! > new Date(Date.now() + 30 * 60_000))).toBe(true);
    // Publishing is not held by the waiting reads: the fourth call of the window is its own.
    await schedulePosts(db, { workspaceId: a.workspaceId, accountId: a.productAccountId, count: 1, label: 'fourth' });
    expect(
      (await publishDueDeliveries(db, testPublisherOptions(sandbox.url, { rateLimits: readBudget.rateLimits }))).sent,
    ).toBe(1);
  });

  it('each account’s followers once a UTC day, through its network', async () => {
    const a = await sandbox.connectAccount('bluesky');
    await readDueMetrics(db, options());
    const snaps = await db.select().from(followerSnapshots).where(eq(followerSnapshots.accountId, a.productAccountId));
    expect(snaps).toHaveLength(1);
    expect(snaps[0]!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(Math.abs(snaps[0]!.followers - followersOf(a.sandboxAccount, 'bluesky'))).toBeLessThanOrEqual(1);
    // Due again today (forced): the day keeps its one row.
    await db.execute(sql`update account_metrics set next_due_at = now() where account_id = ${a.productAccountId}`);
    await readDueMetrics(db, options());
    expect(
      await db.select().from(followerSnapshots).where(eq(followerSnapshots.accountId, a.productAccountId)),
    ).toHaveLength(1);
  });

  it('metrics.updated is batched: one event per batch and workspace, listing the readings', async () => {
    const { a, ids } = await published('x', 3);
    await subscribeToMetrics(a.workspaceId);
    await age(ids, 2 * HOUR);
    const run = await readDueMetrics(db, options());
    expect(run.events).toBe(1);
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, a.workspaceId));
    expect(events).toHaveLength(1);
    expect(events[0]!).toMatchObject({ type: 'metrics.updated', subject: `metrics:${a.workspaceId}` });
    expect(events[0]!.data).toMatchObject({ readings: 3, posts: 3, truncated: 0 });
    expect((events[0]!.data.deliveries as { deliveryId: string }[]).map((d) => d.deliveryId).sort()).toEqual(
      [...ids].sort(),
    );
  });

  it('metrics.updated commits with the readings it reports: a run stopped in between leaves neither, the next both', async () => {
    const { a, ids } = await published('x', 2);
    await subscribeToMetrics(a.workspaceId);
    await age(ids, 2 * HOUR);
    // The event's insert is held, and the run stops right there (its statement canceled, as a crash would end it).
    const release = await holdLock(db, sql`lock table webhook_events in share mode`);
    const running = readDueMetrics(db, options()).catch((error: Error) => error);
    await untilBlocked(db, 'select webhook_emit');
    const canceled = await db.execute(sql`select pg_cancel_backend(pid) from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike 'select webhook_emit%'`);
    expect([...canceled]).toHaveLength(1);
    expect(await running).toBeInstanceOf(Error);
    await release();
    const eventsOf = () => db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, a.workspaceId));
    expect(await snapshotsOf(ids)).toHaveLength(0); // not recorded without its event
    expect(await eventsOf()).toHaveLength(0);
    // Its readings' lease lapses; the next run records them and reports them.
    await db.execute(sql`update post_metrics set lease_expires_at = now() - interval '1 second'
      where delivery_id = any(${`{${ids.join(',')}}`}::uuid[])`);
    expect(await readDueMetrics(db, options())).toMatchObject({ recorded: 2, events: 1 });
    expect(await snapshotsOf(ids)).toHaveLength(2);
    const [event] = await eventsOf();
    expect(event!.data).toMatchObject({ readings: 2, posts: 2 });
  });

  it('metrics.updated is one event per workspace and claimed batch: a run of two batches writes two', async () => {
    const { a, ids } = await published('mastodon', 3);
    await subscribeToMetrics(a.workspaceId);
    await age(ids, 2 * HOUR);
    expect(await readDueMetrics(db, options({ batchSize: 2 }))).toMatchObject({ recorded: 3, events: 2 });
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, a.workspaceId));
    expect(events.map((e) => e.data.readings).sort()).toEqual([1, 2]);
  });

  it('the schedule: the next reading, or the latest already due when the job fell behind', () => {
    const published = new Date('2026-01-01T00:00:00Z');
    const at = (h: number) => new Date(published.getTime() + h * HOUR);
    expect(nextReading(0, published, DEFAULT_READ_DELAYS_MS, at(2))).toEqual({ reading: 1, dueAt: at(24) });
    expect(nextReading(0, published, DEFAULT_READ_DELAYS_MS, at(24 * 8))).toEqual({ reading: 2, dueAt: at(24 * 7) });
    expect(nextReading(1, published, DEFAULT_READ_DELAYS_MS, at(24 * 40))).toEqual({ reading: 3, dueAt: at(24 * 30) });
    expect(nextReading(3, published, DEFAULT_READ_DELAYS_MS, at(24 * 40))).toBeNull();
  });
});

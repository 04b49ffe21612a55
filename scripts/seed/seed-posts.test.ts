import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sniffImageType } from '@/lib/media/sniff';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { readPublicationReport } from '@/lib/reports/publication';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import type { Database } from '@/db/client';
import { seedDemoData, type DemoPostsOptions } from './seed';
import { createTestDatabase } from '@/testing/db/test-database';
import { allowanceFor } from '@/lib/reconcile/allowance-map';

// The demo week (scripts/seed/seed-posts.ts) on real Postgres: every state in each workspace, this week and the next, with
// the history and the sandbox copies the real publisher and reconciler would have left; and the post "being
// verified" settled by the real reconciler against the sandbox server.

const NO_WAIT = allowanceFor(0);
const media = createDiskMediaStorage(mkdtempSync(path.join(tmpdir(), 'semel-seed-')));
const encryptionKey = randomBytes(32).toString('base64');
// A Wednesday afternoon (the workspaces' zone is UTC): the week runs from Monday 2026-11-30 to Sunday 2026-12-13.
const WEDNESDAY = new Date('2026-12-02T13:07:00Z');
const posts = (now: Date, extra: Partial<DemoPostsOptions> = {}): DemoPostsOptions => ({
  origin: 'http://127.0.0.1:3000',
  media,
  now,
  callTimeoutMs: 10_000,
  allowanceMs: { ...NO_WAIT, x: 60_000 },
  ...extra,
});

const [week, monday, parallel] = await Promise.all([
  createTestDatabase(),
  createTestDatabase(),
  createTestDatabase({ max: 10 }),
]);

type Row = Record<string, unknown>;
const query = async <T = Row>(db: Database, text: ReturnType<typeof sql>) => [...(await db.execute(text))] as T[];

async function deliveriesOf(db: Database, slug: string) {
  return query<{
    id: string;
    post_id: string;
    kind: string;
    part: number;
    status: string;
    scheduled_at: Date;
    text: string;
    external_id: string | null;
    external_url: string | null;
    due_at: Date;
    settled_at: Date | null;
    provider: string;
    platform_user_id: string;
  }>(
    db,
    sql`select d.id, d.post_id, p.kind, d.part, d.status, p.scheduled_at, coalesce(pp.text, p.text) as text, d.external_id,
      d.external_url, d.due_at, d.settled_at, a.provider, a.platform_user_id
    from deliveries d join posts p on p.id = d.post_id join workspaces w on w.id = d.workspace_id
    join social_accounts a on a.id = d.account_id
    left join post_parts pp on pp.post_id = p.id and pp.position = d.part
    where w.slug = ${slug} order by p.scheduled_at, d.part`,
  ).then((rows) =>
    rows.map((r) => ({
      ...r,
      scheduled_at: new Date(r.scheduled_at),
      due_at: new Date(r.due_at),
      settled_at: r.settled_at && new Date(r.settled_at),
    })),
  );
}

/** The platform's own record of a post (sandbox.posts), by its id on the account the delivery went to. */
async function sandboxCopy(db: Database, provider: string, platformUserId: string, id: string) {
  const [row] = await query<{ text: string; in_reply_to_id: string | null; created_at: Date }>(
    db,
    sql`select p.text, p.in_reply_to_id, p.created_at from sandbox.posts p join sandbox.accounts a on a.id = p.account_id
      where a.platform = ${provider} and a.platform_user_id = ${platformUserId} and p.id = ${id}::bigint and p.deleted_at is null`,
  );
  return row;
}

async function expectDemoWeek(db: Database, now: Date) {
  const weekStart = new Date('2026-11-30T00:00:00Z');
  for (const slug of ['demo', 'other']) {
    const rows = await deliveriesOf(db, slug);
    const statuses = new Set(rows.map((r) => r.status));
    for (const status of ['sent', 'scheduled', 'ambiguous', 'needs_review', 'missed', 'draft'])
      expect(statuses, `${slug} has a ${status} delivery`).toContain(status);
    for (const r of rows) {
      // This week and the next, in the workspace's zone (UTC here).
      expect(r.scheduled_at.getTime()).toBeGreaterThanOrEqual(weekStart.getTime());
      expect(r.scheduled_at.getTime()).toBeLessThan(weekStart.getTime() + 14 * 86_400_000);
      const past = r.scheduled_at.getTime() <= now.getTime();
      if (['scheduled', 'draft'].includes(r.status)) expect(past).toBe(false);
      else expect(past).toBe(true);
    }
    // Every delivery's history is a chain the transition table allows, ending in its status.
    const broken = await query(
      db,
      sql`select d.id from deliveries d join workspaces w on w.id = d.workspace_id where w.slug = ${slug} and (
        (select e.to_status from delivery_events e where e.delivery_id = d.id order by e.created_at desc, e.id desc limit 1) <> d.status
        or exists (select 1 from delivery_events e where e.delivery_id = d.id and e.from_status is not distinct from null and e.id <>
          (select min(id) from delivery_events f where f.delivery_id = d.id))
        or exists (select 1 from delivery_events e where e.delivery_id = d.id and e.from_status is not null and e.from_status <>
          (select f.to_status from delivery_events f where f.delivery_id = d.id and (f.created_at, f.id) < (e.created_at, e.id)
           order by f.created_at desc, f.id desc limit 1)))`,
    );
    expect(broken).toEqual([]);

    // Sent: a platform id and link, one sent attempt under a released claim, and the copy on the sandbox.
    const sent = rows.filter((r) => r.status === 'sent');
    expect(sent.length).toBeGreaterThanOrEqual(4);
    let decidedByAdmin = 0;
    for (const r of sent) {
      expect(r.external_url).toContain(`/api/sandbox/${r.provider}/`);
      expect(r.external_url).toMatch(new RegExp(`/${r.external_id}$`));
      expect(r.settled_at!.getTime()).toBeLessThan(now.getTime());
      expect(r.settled_at!.getTime()).toBeGreaterThan(r.scheduled_at.getTime());
      const copy = await sandboxCopy(db, r.provider, r.platform_user_id, r.external_id!);
      expect(copy?.text).toBe(r.text);
      const [attempt] = await query<{ n: number; outcome: string; released: boolean }>(
        db,
        sql`select count(*)::int as n, min(t.outcome::text) as outcome, bool_and(c.released_at is not null) as released
          from attempts t join claims c on c.delivery_id = t.delivery_id where t.delivery_id = ${r.id}`,
      );
      // One was confirmed live by an admin from /review: its one attempt had no answer (ambiguous).
      const [decision] = await query<{ admin: boolean }>(
        db,
        sql`select exists (select 1 from delivery_events e where e.delivery_id = ${r.id} and e.to_status = 'sent'
          and e.actor like 'user:%' and e.reason = 'an admin confirmed it is live') as admin`,
      );
      if (decision!.admin) decidedByAdmin += 1;
      expect(attempt).toEqual({ n: 1, outcome: decision!.admin ? 'ambiguous' : 'sent', released: true });
    }
    expect(decidedByAdmin).toBe(1);

    // A thread, sent: part k on the platform is a reply to part k-1.
    const thread = rows.filter((r) => r.kind === 'thread');
    expect(thread.map((r) => [r.part, r.status])).toEqual([
      [0, 'sent'],
      [1, 'sent'],
      [2, 'sent'],
    ]);
    for (const r of thread.slice(1)) {
      const copy = await sandboxCopy(db, r.provider, r.platform_user_id, r.external_id!);
      expect(copy!.in_reply_to_id).toBe(thread[r.part - 1]!.external_id);
    }

    // Being verified: an ambiguous attempt under a held claim, first check when the call and allowance are over,
    // and the copy the platform stored before the answer was lost.
    const [verifying] = rows.filter((r) => r.status === 'ambiguous');
    const [held] = await query<{ released_at: Date | null; outcome: string; started_at: Date }>(
      db,
      sql`select c.released_at, t.outcome, t.started_at from claims c join attempts t on t.delivery_id = c.delivery_id
        where c.delivery_id = ${verifying!.id}`,
    );
    expect(held).toMatchObject({ released_at: null, outcome: 'ambiguous' });
    expect(verifying!.due_at.getTime()).toBe(new Date(held!.started_at).getTime() + 10_000 + 60_000);
    const [copies] = await query<{ n: number }>(
      db,
      sql`select count(*)::int as n from sandbox.posts p join sandbox.accounts a on a.id = p.account_id
        where a.platform_user_id = ${verifying!.platform_user_id} and p.text = ${verifying!.text}`,
    );
    expect(copies!.n).toBe(1);

    // In review: the checks with their evidence, the decision, and the admin's notification.
    const [review] = rows.filter((r) => r.status === 'needs_review');
    const checks = await query<{ decision: string; evidence: Row }>(
      db,
      sql`select decision, evidence from reconciliations where delivery_id = ${review!.id} order by checked_at`,
    );
    expect(checks.map((c) => c.decision)).toEqual(['not_found_recheck', 'needs_review']);
    expect(checks[1]!.evidence).toMatchObject({ copies: [], deadline: expect.any(String) });
    const [notified] = await query(
      db,
      sql`select kind from notifications where delivery_id = ${review!.id} and kind = 'needs_review'`,
    );
    expect(notified).toBeDefined();

    // Missed: never attempted.
    const [missed] = rows.filter((r) => r.status === 'missed');
    const [tried] = await query<{ n: number }>(
      db,
      sql`select count(*)::int as n from attempts where delivery_id = ${missed!.id}`,
    );
    expect(tried!.n).toBe(0);

    // The image: a stored file the media storage serves, attached to a scheduled post.
    const [image] = await query<{ sha256: string; type: string; alt_text: string; status: string }>(
      db,
      sql`select m.sha256, m.type, m.alt_text, min(d.status::text) as status from post_media pm join media m on m.id = pm.media_id
        join posts p on p.id = pm.post_id join workspaces w on w.id = p.workspace_id join deliveries d on d.post_id = p.id
        where w.slug = ${slug} group by m.sha256, m.type, m.alt_text`,
    );
    expect(image).toMatchObject({ type: 'image/png', status: 'scheduled' });
    expect(image!.alt_text.length).toBeGreaterThan(10);
    expect(sniffImageType((await media.get(image!.sha256))!)).toBe('image/png');
  }
}

async function counts(db: Database) {
  const [row] = await query(
    db,
    sql`select (select count(*)::int from posts) as posts, (select count(*)::int from deliveries) as deliveries,
      (select count(*)::int from sandbox.posts) as copies, (select count(*)::int from media) as media,
      (select count(*)::int from delivery_events) as events`,
  );
  return row;
}

describe('the demo week', () => {
  it('has every state in each workspace, this week and next, with consistent history and sandbox copies; a re-run adds nothing', async () => {
    const { db } = week;
    await seedDemoData(db, { password: 'seed-test-password', encryptionKey, posts: posts(WEDNESDAY) });
    await expectDemoWeek(db, WEDNESDAY);
    const first = await counts(db);
    await seedDemoData(db, {
      password: 'seed-test-password',
      encryptionKey,
      posts: posts(new Date(WEDNESDAY.getTime() + 3_600_000)),
    });
    expect(await counts(db)).toEqual(first);
  });

  it('just after midnight on a Monday, still has every state (the settled ones reach back into last week)', async () => {
    const { db } = monday;
    const now = new Date('2026-11-30T01:00:00Z');
    await seedDemoData(db, { password: 'seed-test-password', encryptionKey, posts: posts(now) });
    const rows = await deliveriesOf(db, 'demo');
    expect(new Set(rows.map((r) => r.status))).toEqual(
      new Set(['sent', 'scheduled', 'ambiguous', 'needs_review', 'missed', 'draft']),
    );
    const lastWeek = rows.filter((r) => r.scheduled_at < new Date('2026-11-30T00:00:00Z'));
    expect(new Set(lastWeek.map((r) => r.status))).toEqual(new Set(['sent', 'needs_review', 'missed']));
    const future = rows.filter((r) => r.status === 'scheduled');
    expect(future.every((r) => r.scheduled_at.getTime() > now.getTime())).toBe(true);
    expect(future.every((r) => r.scheduled_at < new Date('2026-12-14T00:00:00Z'))).toBe(true);
  });

  it('is safe to run twice in parallel: one demo week, no duplicate posts', async () => {
    const { db } = parallel;
    const options = { password: 'seed-test-password', encryptionKey, posts: posts(WEDNESDAY) };
    await Promise.all([seedDemoData(db, options), seedDemoData(db, options)]);
    await expectDemoWeek(db, WEDNESDAY);
    const [dupes] = await query<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select text from posts group by workspace_id, text having count(*) > 1) t`,
    );
    expect(dupes!.n).toBe(0);
  });
});

const sandbox = await startTestSandbox();

describe('the post being verified', () => {
  it('is settled as sent by the real reconciler, once its call and allowance are over, with the sandbox copy', async () => {
    const allowanceMs = { ...NO_WAIT, x: 12_000 };
    await seedDemoData(sandbox.db, {
      password: 'seed-test-password',
      encryptionKey: TEST_ENCRYPTION_KEY,
      posts: { origin: sandbox.url, media, callTimeoutMs: 300, allowanceMs },
    });
    const options = testReconcileOptions(sandbox.url, { callTimeoutMs: 300, allowanceMs });
    const verifying = () =>
      query<{ id: string; status: string; external_id: string | null; external_url: string | null; due_at: Date }>(
        sandbox.db,
        sql`select d.id, d.status, d.external_id, d.external_url, d.due_at from deliveries d join posts p on p.id = d.post_id
          where p.idempotency_key like '%:verifying' order by d.id`,
      );
    const before = (await verifying()).map((d) => ({ ...d, due_at: new Date(d.due_at) }));
    expect(before.map((d) => d.status)).toEqual(['ambiguous', 'ambiguous']);
    expect(Date.now()).toBeLessThan(Math.min(...before.map((d) => d.due_at.getTime())));
    // Not due yet: the reconciler takes nothing before the allowance is over (no early "proof" of absence).
    expect((await reconcileAmbiguousDeliveries(sandbox.db, options)).checked).toBe(0);

    await new Promise((r) => setTimeout(r, Math.max(...before.map((d) => d.due_at.getTime())) - Date.now() + 50));
    const summary = await reconcileAmbiguousDeliveries(sandbox.db, options);
    expect(summary).toMatchObject({ checked: 2, found: 2, released: 0 });
    for (const d of await verifying()) {
      expect(d.status).toBe('sent');
      expect(d.external_url).toBe(`${sandbox.url}/api/sandbox/x/2/tweets/${d.external_id}`);
      const [copy] = await query<{ n: number }>(
        sandbox.db,
        sql`select count(*)::int as n from sandbox.posts where id = ${d.external_id}::bigint`,
      );
      expect(copy!.n).toBe(1);
    }

    // The proof-of-publication report for the demo weeks shows every path, in each workspace.
    const workspaces = await query<{ id: string }>(sandbox.db, sql`select id from workspaces order by slug`);
    expect(workspaces.length).toBeGreaterThan(1);
    const range = { from: new Date(Date.now() - 14 * 86_400_000), to: new Date(Date.now() + 14 * 86_400_000) };
    for (const { id } of workspaces) {
      const report = (await readPublicationReport(sandbox.db, { workspaceId: id, range, origin: sandbox.url }))!;
      expect(new Set(report.rows.map((r) => r.settlement))).toEqual(
        new Set(['direct', 'reconciled', 'admin', 'missed', 'open']),
      );
      const decided = report.rows.find((r) => r.settlement === 'admin')!;
      expect(decided.how).toMatch(/ decided: an admin confirmed it is live\.$/);
      expect(decided.link).toMatch(/\/api\/sandbox\/x\/2\/tweets\/\d+$/);
      expect(report.incidents.map((i) => i.kind)).toEqual(expect.arrayContaining(['ambiguous', 'review_decision']));
    }
  });
});

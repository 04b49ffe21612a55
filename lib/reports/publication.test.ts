import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { resolveReviewItem } from '@/db/queries/deliveries';
import { makeUser } from '@/testing/db/factories';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { noParams } from '@/testing/api-fixture';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { GET as getReport } from '@/app/api/v1/reports/publication/route';
import { publicationReportCsv } from './csv';
import { readPublicationReport, type PublicationReport } from './publication';

// The proof-of-publication report, on deliveries settled by the real publisher, reconciler and review paths
// against the sandbox: each path is named with its evidence, the totals are the database's own counts, and
// nothing internal (ids, tokens) leaves in the JSON or the CSV.

const sandbox = await startTestSandbox({ hangMs: 10_000 });
const { db } = sandbox;
process.env.DATABASE_URL = lastTestDatabaseUrl();
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 3_000 }));
const reconcile = () => reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!.status;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** One workspace with a delivery down each path: direct, reconciled, admin-decided, missed, and one still open. */
async function workspaceWithEveryPath() {
  const healthy = await sandbox.connectAccount('x');
  const workspaceId = healthy.workspaceId;
  const flaky = await sandbox.connectAccount('x', workspaceId);
  const lostAnswer = await sandbox.connectAccount('mastodon', workspaceId);
  const post = (accountId: string, label: string, scheduledAt?: Date) =>
    schedulePosts(db, { workspaceId, accountId, count: 1, label: sandbox.uniqueText(label), scheduledAt }).then(
      ([id]) => id!,
    );

  const direct = await post(healthy.productAccountId, 'direct');
  const missed = await post(healthy.productAccountId, 'missed', new Date(Date.now() - 2 * 3_600_000));
  await sandbox.setFaults(flaky.sandboxAccount.id, { timeoutAfterCommit: 1 });
  const reconciled = await post(flaky.productAccountId, 'reconciled');
  await sandbox.setFaults(lostAnswer.sandboxAccount.id, { timeoutAfterCommit: 1 });
  const decided = await post(lostAnswer.productAccountId, 'decided');
  const open = await post(healthy.productAccountId, 'later', new Date(Date.now() + 3_600_000));
  await publish();
  expect([await status(direct), await status(missed), await status(reconciled), await status(decided)]).toEqual([
    'sent',
    'missed',
    'ambiguous',
    'ambiguous',
  ]);

  // Reconciliation finds the X post; the Mastodon one is confirmed live by an admin before any read.
  await db.execute(sql`update deliveries set due_at = now() + interval '1 hour' where id = ${decided}`);
  await sandbox.setFaults(flaky.sandboxAccount.id, {});
  await reconcile();
  expect(await status(reconciled)).toBe('sent');
  const admin = await makeUser(db, `ana-${sandbox.uniqueText('').trim()}@agency.test`);
  await db.execute(sql`update users set name = 'Ana Admin' where id = ${admin.id}`);
  const [copy] = (await sandbox.allPosts(lostAnswer.sandboxAccount.id)).filter((p) => !p.deletedAt);
  const decision = await resolveReviewItem(db, {
    workspaceId,
    deliveryId: decided,
    actorUserId: admin.id,
    resolution: { action: 'live', externalId: copy!.id, url: null },
  });
  expect(decision.applied).toBe(true);
  return { workspaceId, ids: { direct, missed, reconciled, decided, open } };
}

const period = () => ({ from: new Date(Date.now() - 3 * 3_600_000), to: new Date(Date.now() + 2 * 3_600_000) });

describe('proof-of-publication report', () => {
  it('names each path (direct, reconciled with its evidence, decided by whom, missed, open) and matches the database', async () => {
    const { workspaceId } = await workspaceWithEveryPath();
    const report = (await readPublicationReport(db, { workspaceId, range: period(), origin: sandbox.url }))!;

    const bySettlement = Object.fromEntries(report.rows.map((r) => [r.settlement, r]));
    expect(Object.keys(bySettlement).sort()).toEqual(['admin', 'direct', 'missed', 'open', 'reconciled']);
    expect(bySettlement.direct).toMatchObject({ status: 'sent', how: expect.stringContaining('confirmed the post') });
    expect(bySettlement.direct!.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(bySettlement.direct!.latenessSeconds).toBeGreaterThanOrEqual(0);
    expect(bySettlement.reconciled).toMatchObject({
      status: 'sent',
      how: expect.stringMatching(/outcome was unknown; reading the account’s recent posts \(\d+ read\) found it/),
    });
    expect(bySettlement.reconciled!.publishedAt).not.toBeNull();
    expect(bySettlement.admin).toMatchObject({
      status: 'sent',
      how: 'Ana Admin decided: an admin confirmed it is live.',
    });
    expect(bySettlement.missed).toMatchObject({
      status: 'missed',
      publishedAt: null,
      how: 'Not published: past the workspace lateness limit.',
    });
    expect(bySettlement.open).toMatchObject({ status: 'scheduled', publishedAt: null });

    // The totals are the database's own counts for the period.
    const [counts] = [
      ...(await db.execute(sql`
        select count(*)::int as deliveries, count(*) filter (where d.status = 'sent')::int as sent
        from deliveries d join posts p on p.id = d.post_id
        where d.workspace_id = ${workspaceId} and p.scheduled_at >= ${period().from.toISOString()}::timestamptz`)),
    ] as { deliveries: number; sent: number }[];
    expect(report.totals).toMatchObject({ ...counts, direct: 1, reconciled: 1, admin: 1, missed: 1, open: 1 });

    // Incidents: two unknown outcomes (one settled by a read, one by the admin) and the admin's decision.
    expect(report.incidents.map((i) => `${i.kind}: ${i.detail}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ambiguous: Outcome unknown .*; then confirmed sent\.$/),
        expect.stringMatching(/^review_decision: Ana Admin: an admin confirmed it is live\.$/),
      ]),
    );
    expect(report.incidents.filter((i) => i.kind === 'ambiguous')).toHaveLength(2);
  });

  it('says nothing internal: no ids or tokens in the JSON or the CSV, and post text cannot run as a formula', async () => {
    const { workspaceId } = await workspaceWithEveryPath();
    const report = (await readPublicationReport(db, { workspaceId, range: period(), origin: sandbox.url }))!;
    const json = JSON.stringify(report);
    const csv = publicationReportCsv(report);
    expect(json).not.toMatch(UUID);
    expect(csv).not.toMatch(UUID);
    const [account] = [
      ...(await db.execute(
        sql`select credentials_encrypted from social_accounts where workspace_id = ${workspaceId} limit 1`,
      )),
    ] as { credentials_encrypted: string }[];
    expect(json).not.toContain(account!.credentials_encrypted.slice(0, 16));

    const formula: PublicationReport = { ...report, rows: [{ ...report.rows[0]!, text: '=HYPERLINK("http://evil")' }] };
    expect(publicationReportCsv(formula).split('\r\n')[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv.startsWith('\uFEFFScheduled (UTC),Published (UTC),')).toBe(true);
    expect(csv.trimEnd().split('\r\n')).toHaveLength(report.rows.length + 1);
  });

  it('GET /api/v1/reports/publication: JSON and CSV for the key’s workspace only; a bad period is a 422 problem', async () => {
    const { workspaceId } = await workspaceWithEveryPath();
    const other = await workspaceWithEveryPath();
    const token = await sandbox.apiKey(workspaceId);
    const { from, to } = period();
    const get = (query: string) =>
      getReport(
        new Request(`http://localhost/api/v1/reports/publication?${query}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
        noParams,
      );

    const ok = await get(`from=${from.toISOString()}&to=${to.toISOString()}`);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as PublicationReport;
    expect(body.totals.deliveries).toBe(5);
    const ours = new Set(body.rows.map((r) => r.account));
    const theirs = (await readPublicationReport(db, {
      workspaceId: other.workspaceId,
      range: period(),
      origin: sandbox.url,
    }))!;
    for (const r of theirs.rows) expect(ours.has(r.account)).toBe(false);

    const csv = await get(`from=${from.toISOString()}&to=${to.toISOString()}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="publication-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect((await csv.text()).trimEnd().split('\r\n')).toHaveLength(6);

    for (const [query, field] of [
      ['', 'from'],
      [`from=${from.toISOString()}`, 'to'],
      [`from=${to.toISOString()}&to=${from.toISOString()}`, 'to'],
      [`from=${from.toISOString()}&to=${to.toISOString()}&format=pdf`, 'format'],
    ] as const) {
      const bad = await get(query);
      expect(bad.status, query).toBe(422);
      expect(bad.headers.get('content-type')).toBe('application/problem+json');
      expect(((await bad.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(field);
    }
  });
});

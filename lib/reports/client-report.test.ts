import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { enqueueClientReport, setClientReportLogo, setClientReportRecipient } from '@/db/queries/client-reports';
import { clientReports, notificationSends, outboxEmails } from '@/db/schema';
import { deliverDueNotifications } from '@/lib/notifications/send';
import { insertMetricHistory } from '@/testing/analytics';
import { makeAccount, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { makeImage } from '@/testing/images';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { startSmtpCapture } from '@/testing/smtp';
import { readClientReport } from './client-report';
import { prepareLogo } from './logo';
import { enqueueMonthlyClientReports, lastCompleteMonth, monthPeriod } from './monthly';
import { renderClientReportPdf } from './pdf/render';

// The client report: proof and performance together as a real PDF (its text extracted and checked), and the monthly
// email, once per workspace and month (client_reports_workspace_period_uq) through the notifications outbox.

const { db } = await createTestDatabase({ max: 10 });

async function workspaceWithMay() {
  const workspace = await makeWorkspace(db);
  const user = await makeUser(db);
  const account = await makeAccount(db, workspace.id, 'x');
  await insertMetricHistory(db, {
    workspaceId: workspace.id,
    accountIds: [account.id],
    posts: 31,
    from: new Date('2026-05-01T12:00:00Z'),
    to: new Date('2026-06-01T12:00:00Z'),
    readings: 2,
  });
  return { workspace, user };
}

async function pdfText(bytes: Buffer) {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('the client report', () => {
  it('a real PDF with the workspace’s name, the performance totals, the proof totals and every delivery', async () => {
    const { workspace, user } = await workspaceWithMay();
    const logo = await prepareLogo(await makeImage('png', { width: 900, height: 300 }));
    if (!logo.ok) throw new Error(logo.message);
    await setClientReportLogo(db, {
      workspaceId: workspace.id,
      logo: { bytes: logo.bytes, type: logo.type },
      userId: user.id,
    });
    const report = await readClientReport(db, {
      workspaceId: workspace.id,
      period: monthPeriod('2026-05', 'UTC'),
      origin: '',
    });
    expect(report!.logo?.bytes.length).toBeGreaterThan(0);
    const perf = report!.publication.performance;
    expect(perf.read).toBe(31);
    const pdf = await renderClientReportPdf(report!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain(workspace.name);
    expect(text).toContain('Client report: posts scheduled from 2026-05-01 to 2026-05-31');
    const format = (n: number) => new Intl.NumberFormat('en-GB').format(n);
    expect(text).toContain(`Total engagement ${format(perf.engagement!)}`);
    expect(text).toContain(`Views ${format(perf.views!)}`);
    expect(text).toContain('Deliveries 31');
    expect(text).toContain('metrics #30');
  });

  it('the month that just ended, in the workspace’s zone', () => {
    expect(lastCompleteMonth(new Date('2026-06-02T10:00:00Z'), 'UTC')).toMatchObject({ period: '2026-05' });
    // 23:30 UTC on 31 May is already June 1st in Berlin.
    expect(lastCompleteMonth(new Date('2026-05-31T23:30:00Z'), 'Europe/Berlin').period).toBe('2026-05');
    expect(lastCompleteMonth(new Date('2026-05-31T23:30:00Z'), 'UTC').period).toBe('2026-04');
    const may = monthPeriod('2026-05', 'UTC');
    expect([may.fromDay, may.toDay]).toEqual(['2026-05-01', '2026-05-31']);
  });

  it('once per workspace and month: racing jobs enqueue one report; the email carries the PDF', async () => {
    const { workspace, user } = await workspaceWithMay();
    await setClientReportRecipient(db, {
      workspaceId: workspace.id,
      toAddress: 'client@example.test',
      userId: user.id,
    });
    const now = new Date('2026-06-02T10:00:00Z');
    const runs = await Promise.all(Array.from({ length: 5 }, () => enqueueMonthlyClientReports(db, { now })));
    expect(runs.reduce((n, r) => n + r.enqueued, 0)).toBeGreaterThanOrEqual(1);
    const rows = await db.select().from(clientReports).where(eq(clientReports.workspaceId, workspace.id));
    expect(rows.map((r) => r.period)).toEqual(['2026-05']);
    expect(
      await enqueueClientReport(db, { workspaceId: workspace.id, period: '2026-05', toAddress: 'x@y.test' }),
    ).toBeNull();
    expect(await db.$count(notificationSends, eq(notificationSends.workspaceId, workspace.id))).toBe(1);
    // The constraint holds for a writer that skips the statement.
    await expect(
      db.insert(clientReports).values({ workspaceId: workspace.id, period: '2026-05', toAddress: 'x@y.test' }),
    ).rejects.toMatchObject({ cause: { constraint_name: 'client_reports_workspace_period_uq' } });

    const smtp = await startSmtpCapture();
    try {
      const [a, b] = await Promise.all([
        deliverDueNotifications(db, { smtpUrl: smtp.url, encryptionKey: TEST_ENCRYPTION_KEY }),
        deliverDueNotifications(db, { smtpUrl: smtp.url, encryptionKey: TEST_ENCRYPTION_KEY }),
      ]);
      expect(a.sent + b.sent).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual(['client@example.test']);
      expect(smtp.received[0]!.data).toContain('Monthly report: May 2026');
      expect(smtp.received[0]!.data).toMatch(/Content-Type: application\/pdf;\s+name=/);
      expect(smtp.received[0]!.data).toContain('-report-2026-05-01-to-2026-05-31.pdf');
    } finally {
      await smtp.close();
    }
  });

  it('without SMTP the Outbox keeps the email and names its attachment', async () => {
    const { workspace } = await workspaceWithMay();
    await enqueueClientReport(db, { workspaceId: workspace.id, period: '2026-05', toAddress: 'client@example.test' });
    await deliverDueNotifications(db, { smtpUrl: null, encryptionKey: TEST_ENCRYPTION_KEY });
    const [email] = await db.select().from(outboxEmails).where(eq(outboxEmails.workspaceId, workspace.id));
    expect(email).toMatchObject({ toAddress: 'client@example.test' });
    expect(email!.body).toContain('Deliveries: 31, sent: 31');
    expect(email!.body).toMatch(/\[Attached: .*-report-2026-05-01-to-2026-05-31\.pdf, \d+ bytes\]/);
  });
});

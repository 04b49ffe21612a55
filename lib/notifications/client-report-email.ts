import type { Database } from '@/db/client';
import type { ClaimedNotificationSend } from '@/db/queries/notification-sends';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { readClientReport } from '@/lib/reports/client-report';
import { monthPeriod } from '@/lib/reports/monthly';
import { clientReportFileName, renderClientReportPdf } from '@/lib/reports/pdf/render';
import type { EmailMessage } from './compose';

const integer = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const count = (v: number | null) => (v === null ? 'not given' : integer.format(v));

/**
 * The monthly client report's email: the month's totals in words and the report as a PDF attachment, built when the
 * send is claimed (so it holds what the workspace knows then). Throws when the workspace is gone (the send retries
 * and is given up like any other).
 */
export async function clientReportEmail(
  db: Database,
  send: ClaimedNotificationSend,
  origin: string | undefined,
): Promise<EmailMessage> {
  const settings = await getWorkspaceSettings(db, { workspaceId: send.workspaceId });
  if (!settings || !send.clientReportPeriod) throw new Error('The workspace or the report is gone.');
  const period = monthPeriod(send.clientReportPeriod, settings.timeZone);
  const report = await readClientReport(db, { workspaceId: send.workspaceId, period, origin: origin ?? '' });
  if (!report) throw new Error('The workspace is gone.');
  const { totals, performance } = report.publication;
  const month = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${send.clientReportPeriod}-15T00:00:00Z`),
  );
  return {
    to: send.toAddress!,
    subject: `[${send.workspaceName}] Monthly report: ${month}`,
    text: [
      `${send.workspaceName}: the report for ${month} (${report.fromDay} to ${report.toDay}, ${settings.timeZone}).`,
      '',
      `Deliveries: ${totals.deliveries}, sent: ${totals.sent} (${totals.direct} confirmed directly, ${totals.reconciled} confirmed by reconciliation), missed: ${totals.missed}, failed: ${totals.failed}.`,
      `Engagement: ${count(performance.engagement)}; views: ${count(performance.views)}; likes: ${count(performance.likes)}; reposts: ${count(performance.reposts)}; replies: ${count(performance.replies)}.`,
      `Followers at the end of the month: ${count(report.analytics.followers.end)}.`,
      '',
      'Every post, how it was published and how it did is in the attached PDF.',
    ].join('\n'),
    attachments: [
      {
        filename: clientReportFileName(report),
        content: await renderClientReportPdf(report),
        contentType: 'application/pdf',
      },
    ],
  };
}

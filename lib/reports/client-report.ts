import type { Executor } from '@/db/client';
import { getClientReportSettings } from '@/db/queries/client-reports';
import { readAnalyticsSummary, type AnalyticsSummary } from '@/lib/analytics/summary';
import type { ReportPeriod } from './period';
import { readPublicationReport, type PublicationReport } from './publication';

/**
 * The client report (docs/analytics.md#the-client-report): proof of publication and performance together, for one
 * period of the workspace's days: every delivery with how it was settled and how it did, the totals of both, and the
 * accounts' followers. What the PDF and the monthly email show.
 */
export type ClientReport = {
  fromDay: string;
  toDay: string;
  publication: PublicationReport;
  analytics: AnalyticsSummary;
  logo: { bytes: Buffer; type: 'image/png' | 'image/jpeg' } | null;
  generatedAt: string;
};

export async function readClientReport(
  db: Executor,
  params: { workspaceId: string; period: ReportPeriod; origin: string; accountIds?: string[] | null },
): Promise<ClientReport | null> {
  const publication = await readPublicationReport(db, {
    workspaceId: params.workspaceId,
    range: params.period.range,
    origin: params.origin,
  });
  if (!publication) return null;
  const [analytics, settings] = await Promise.all([
    readAnalyticsSummary(db, {
      workspaceId: params.workspaceId,
      timeZone: publication.workspace.timeZone,
      period: params.period,
      accountIds: params.accountIds ?? null,
    }),
    getClientReportSettings(db, { workspaceId: params.workspaceId }),
  ]);
  return {
    fromDay: params.period.fromDay,
    toDay: params.period.toDay,
    publication,
    analytics,
    logo: settings?.logo && settings.logoType ? { bytes: settings.logo, type: settings.logoType } : null,
    generatedAt: new Date().toISOString(),
  };
}

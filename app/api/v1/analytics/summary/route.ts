import { getDb } from '@/db/client';
import { listAnalyticsAccounts } from '@/db/queries/analytics';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { checkSummaryQuery } from '@/lib/analytics/api-query';
import { METRIC_NAMES } from '@/lib/analytics/metrics';
import { changeOf, readAnalyticsSummary } from '@/lib/analytics/summary';
import { apiHandler, json } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';

export const GET = apiHandler('posts:read', async (request, principal) => {
  const db = getDb();
  const workspaceId = principal.workspaceId;
  const [settings, accounts] = await Promise.all([
    getWorkspaceSettings(db, { workspaceId }),
    listAnalyticsAccounts(db, { workspaceId }),
  ]);
  if (!settings) return problem({ status: 404, title: 'Not Found', detail: 'The workspace no longer exists.' });
  const query = checkSummaryQuery(Object.fromEntries(new URL(request.url).searchParams), {
    timeZone: settings.timeZone,
    accountIds: accounts.map((a) => a.id),
  });
  if (!query.ok)
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'The summary needs a period, `from` and `to` (ISO-8601 with a zone), and optionally `accountIds`.',
      errors: query.errors,
    });
  const summary = await readAnalyticsSummary(db, {
    workspaceId,
    timeZone: settings.timeZone,
    period: query.period,
    accountIds: query.accountIds,
  });
  const { from, to } = query.period.range;
  const previousFrom = new Date(from.getTime() - (to.getTime() - from.getTime()));
  const keys = ['posts', ...METRIC_NAMES, 'engagement'] as const;
  return json({
    from: from.toISOString(),
    to: to.toISOString(),
    timeZone: settings.timeZone,
    accountIds: query.accountIds,
    totals: summary.current,
    previous: { from: previousFrom.toISOString(), to: from.toISOString(), totals: summary.previous },
    change: Object.fromEntries(keys.map((k) => [k, changeOf(summary.current[k], summary.previous[k])])),
    followers: summary.followers,
    networks: summary.networks,
  });
});

import { BestTime } from '@/components/analytics/best-time';
import { AnalyticsFilters } from '@/components/analytics/filters';
import { NetworkBreakdown } from '@/components/analytics/network-chart';
import { TopPosts } from '@/components/analytics/top-posts';
import { AnalyticsTotals } from '@/components/analytics/totals';
import { TrendChart } from '@/components/analytics/trend-chart';
import { EmptyState } from '@/components/ui/empty-state';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAnalyticsAccounts } from '@/db/queries/analytics';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { checkAnalyticsPeriod, pickAccounts } from '@/lib/analytics/period';
import { BEST_TIME_HISTORY_DAYS, readAnalyticsView } from '@/lib/analytics/summary';
import { requirePageWorkspace } from '@/lib/auth/gate';

export const metadata = { title: 'Analytics' };

type Query = Record<string, string | string[] | undefined>;
const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function AnalyticsPage({ searchParams }: { searchParams: Promise<Query> }) {
  const { workspace, allowed } = await requirePageWorkspace('read');
  if (!allowed) return <Forbidden capability="read" />;
  const db = getDb();
  const query = await searchParams;
  const [settings, accounts] = await Promise.all([
    getWorkspaceSettings(db, { workspaceId: workspace.id }),
    listAnalyticsAccounts(db, { workspaceId: workspace.id }),
  ]);
  const timeZone = settings?.timeZone ?? 'UTC';
  const checked = checkAnalyticsPeriod({ from: one(query.from), to: one(query.to) }, timeZone);
  const selected = pickAccounts(list(query.account), accounts);
  const view = checked.ok
    ? await readAnalyticsView(db, { workspaceId: workspace.id, timeZone, period: checked.period, accountIds: selected })
    : null;
  const fromDay = checked.ok ? checked.period.fromDay : checked.fromDay;
  const toDay = checked.ok ? checked.period.toDay : checked.toDay;
  const filterQuery = new URLSearchParams([
    ['from', fromDay],
    ['to', toDay],
    ...(selected ?? []).map((id) => ['account', id]),
  ]).toString();

  return (
    <>
      <PageHeader
        title="Analytics"
        description={
          <>
            {workspace.name}: how the posts published from {fromDay} to {toDay} did, as each network reports it.
          </>
        }
        actions={
          view && (
            <div className="flex gap-2 print:hidden">
              <a
                href={`/analytics/csv?${filterQuery}`}
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
              >
                Download metrics (CSV)
              </a>
              <a
                href={`/reports/pdf?from=${encodeURIComponent(fromDay)}&to=${encodeURIComponent(toDay)}`}
                className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-500"
              >
                Client report (PDF)
              </a>
            </div>
          )
        }
      />
      <AnalyticsFilters
        fromDay={fromDay}
        toDay={toDay}
        accounts={accounts}
        selected={selected}
        timeZone={timeZone}
        errors={checked.ok ? {} : checked.errors}
      />
      {view && view.current.posts + view.previous.posts === 0 && view.followers.end === null ? (
        <EmptyState title="No metrics yet for this period">
          Metrics are read from each network an hour after a post goes out, then after a day, a week and a month.
        </EmptyState>
      ) : (
        view && (
          <>
            <AnalyticsTotals
              current={view.current}
              previous={view.previous}
              followers={view.followers}
              previousLabel={`${view.previousFromDay} to ${view.previousToDay}`}
            />
            <div className="mb-6 space-y-6">
              <TrendChart series={view.series} />
              <NetworkBreakdown networks={view.networks} />
            </div>
            <section aria-labelledby="top-posts" className="mb-6">
              <h2 id="top-posts" className="mb-3 text-lg font-semibold text-slate-900">
                Posts by engagement rate
              </h2>
              <TopPosts posts={view.topPosts} timeZone={timeZone} />
            </section>
            <BestTime
              hours={view.hours}
              best={view.bestTime}
              timeZone={timeZone}
              historyDays={BEST_TIME_HISTORY_DAYS}
            />
          </>
        )
      )}
    </>
  );
}

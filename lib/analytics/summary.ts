import type { Executor } from '@/db/client';
import {
  getAnalyticsTotals,
  getDailyEngagement,
  getEngagementByHour,
  getFollowerSeries,
  getNetworkBreakdown,
  listTopPosts,
  type AnalyticsScope,
  type MetricTotals,
  type RankedPost,
} from '@/db/queries/analytics';
import type { ProviderName } from '@/db/schema';
import { addDays } from '@/lib/calendar/grid';
import type { ReportPeriod } from '@/lib/reports/period';

// What the analytics page, the API summary and the client report show (docs/analytics.md#the-analytics-page): every
// figure comes aggregated from SQL (db/queries/analytics.ts); this file only puts the periods side by side.

/** How far back "best time to post" looks into the workspace's history. */
export const BEST_TIME_HISTORY_DAYS = 180;
const TOP_POSTS = 10;

export type FollowerFigures = {
  /** The accounts' followers at the end of the period (their latest counts, summed); null when none was read. */
  end: number | null;
  change: number | null;
  previousChange: number | null;
};

export type AnalyticsSummary = {
  current: MetricTotals;
  previous: MetricTotals;
  followers: FollowerFigures;
  networks: (MetricTotals & { provider: ProviderName })[];
};

export type DayPoint = {
  day: string;
  posts: number;
  engagement: number | null;
  views: number | null;
  followers: number | null;
};

export type HourCell = { weekday: number; hour: number; posts: number; avgEngagement: number };

export type AnalyticsView = AnalyticsSummary & {
  fromDay: string;
  toDay: string;
  previousFromDay: string;
  previousToDay: string;
  series: DayPoint[];
  topPosts: RankedPost[];
  hours: HourCell[];
  /** The weekday and hour with the best average engagement (two posts there at least); null without history. */
  bestTime: HourCell | null;
};

const daysIn = (period: ReportPeriod) =>
  Math.round((period.range.to.getTime() - period.range.from.getTime()) / 86_400_000);

/** The change from `previous` to `current` as a share (0.25 = +25 %); null when there is nothing to compare. */
export function changeOf(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / previous;
}

function scopeOf(params: { workspaceId: string; timeZone: string; period: ReportPeriod; accountIds: string[] | null }) {
  return {
    workspaceId: params.workspaceId,
    from: params.period.range.from,
    to: params.period.range.to,
    accountIds: params.accountIds,
    timeZone: params.timeZone,
  } satisfies AnalyticsScope;
}

/** The followers at three ends: before the previous period, before this one, at this one's end. */
function followerFigures(series: { day: string; followers: number | null }[], fromDay: string, days: number) {
  const at = (day: string) => series.find((p) => p.day === day)?.followers ?? null;
  const end = series.at(-1)?.followers ?? null;
  const start = at(addDays(fromDay, -1));
  const previousStart = at(addDays(fromDay, -1 - days));
  return {
    end,
    change: end !== null && start !== null ? end - start : null,
    previousChange: start !== null && previousStart !== null ? start - previousStart : null,
  };
}

type SummaryParams = { workspaceId: string; timeZone: string; period: ReportPeriod; accountIds: string[] | null };

/** The summary's three queries, side by side; the followers' day series kept for the page's chart. */
async function summaryWithSeries(db: Executor, params: SummaryParams) {
  const scope = scopeOf(params);
  const days = daysIn(params.period);
  const [totals, series, networks] = await Promise.all([
    getAnalyticsTotals(db, scope),
    getFollowerSeries(db, { ...scope, fromDay: addDays(params.period.fromDay, -1 - days), toDay: params.period.toDay }),
    getNetworkBreakdown(db, scope),
  ]);
  const summary: AnalyticsSummary = {
    ...totals,
    followers: followerFigures(series, params.period.fromDay, days),
    networks,
  };
  return { summary, series };
}

/** Totals against the previous period, followers, and the per-network split (the API summary, the report). */
export async function readAnalyticsSummary(db: Executor, params: SummaryParams): Promise<AnalyticsSummary> {
  return (await summaryWithSeries(db, params)).summary;
}

/** Everything the analytics page shows, its queries run side by side. */
export async function readAnalyticsView(db: Executor, params: SummaryParams): Promise<AnalyticsView> {
  const scope = scopeOf(params);
  const days = daysIn(params.period);
  const { fromDay, toDay } = params.period;
  const [{ summary, series: followers }, daily, topPosts, hours] = await Promise.all([
    summaryWithSeries(db, params),
    getDailyEngagement(db, scope),
    listTopPosts(db, { ...scope, limit: TOP_POSTS }),
    getEngagementByHour(db, { ...scope, historyDays: BEST_TIME_HISTORY_DAYS }),
  ]);
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const followersOn = new Map(followers.map((f) => [f.day, f.followers]));
  const series: DayPoint[] = [];
  for (let day = fromDay; day <= toDay; day = addDays(day, 1)) {
    const d = byDay.get(day);
    series.push({
      day,
      posts: d?.posts ?? 0,
      engagement: d?.engagement ?? null,
      views: d?.views ?? null,
      followers: followersOn.get(day) ?? null,
    });
  }
  const ranked = hours.filter((h) => h.posts >= 2).sort((a, b) => b.avgEngagement - a.avgEngagement);
  return {
    ...summary,
    fromDay,
    toDay,
    previousFromDay: addDays(fromDay, -days),
    previousToDay: addDays(fromDay, -1),
    series,
    topPosts,
    hours,
    bestTime: ranked[0] ?? null,
  };
}

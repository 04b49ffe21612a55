import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../client';
import { METRIC_NAMES, type MetricName } from '../metric-names';
import type { ProviderName } from '../schema';
import { rows } from './deliveries/rows';
import { deliveryTextSql } from './post-variants';
import { uuidAny } from './sql-params';

// The analytics page's reads (docs/analytics.md#the-analytics-page): every figure is aggregated here, in SQL, over
// post_metrics (one row per sent delivery with its latest reading) and follower_snapshots, through
// post_metrics_workspace_published_idx: the page's cost follows the posts in the period, not the snapshots kept.
// A post is its part 0 on an account: first comments and a thread's later parts are counted as no post (and neither
// ranked nor in the heat map), but their metrics are summed with the post's.

/** The rows (`m`) that are posts, not a reply part of one. */
const isPost = sql`m.part = 0`;

export type AnalyticsScope = {
  workspaceId: string;
  /** `[from, to)`: posts published in it. */
  from: Date;
  to: Date;
  /** Only these accounts; null: every account of the workspace. */
  accountIds: string[] | null;
  /** The workspace's IANA zone: days and hours are its own. */
  timeZone: string;
};

export type MetricTotals = Record<MetricName | 'engagement', number | null> & { posts: number };

const stamp = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const onAccounts = (scope: AnalyticsScope, column: SQL) =>
  scope.accountIds ? sql`and ${column} = ${uuidAny(scope.accountIds)}` : sql``;
/** Each metric summed; null when no post of the set has it (the networks give none of it). */
const sums = (filter: SQL) =>
  sql.join(
    [...METRIC_NAMES, 'engagement'].map(
      (m) => sql`sum(m.${sql.raw(m)}) filter (where ${filter})::float8 as ${sql.raw(m)}`,
    ),
    sql`, `,
  );

function totalsOf(row: Record<string, unknown>, prefix = ''): MetricTotals {
  const value = (k: string) => (row[prefix + k] === null ? null : Number(row[prefix + k]));
  return {
    posts: Number(row[`${prefix}posts`]),
    ...(Object.fromEntries([...METRIC_NAMES, 'engagement'].map((m) => [m, value(m)])) as Record<
      MetricName | 'engagement',
      number | null
    >),
  };
}

/** The period's totals and the previous period's (the same length, just before), in one pass over the index. */
export async function getAnalyticsTotals(db: Executor, scope: AnalyticsScope) {
  const previousFrom = new Date(scope.from.getTime() - (scope.to.getTime() - scope.from.getTime()));
  const current = sql`m.published_at >= ${stamp(scope.from)}`;
  const previous = sql`m.published_at < ${stamp(scope.from)}`;
  const [row] = rows<Record<string, unknown>>(
    await db.execute(sql`
      select count(*) filter (where ${current} and ${isPost})::int as posts, ${sums(current)},
        count(*) filter (where ${previous} and ${isPost})::int as prev_posts,
        ${sql.join(
          [...METRIC_NAMES, 'engagement'].map(
            (m) => sql`sum(m.${sql.raw(m)}) filter (where ${previous})::float8 as ${sql.raw(`prev_${m}`)}`,
          ),
          sql`, `,
        )}
      from post_metrics m
      where m.workspace_id = ${scope.workspaceId} and m.published_at >= ${stamp(previousFrom)}
        and m.published_at < ${stamp(scope.to)} ${onAccounts(scope, sql`m.account_id`)}`),
  );
  return { current: totalsOf(row!), previous: totalsOf(row!, 'prev_') };
}

/**
 * Followers of the accounts at the end of each day (their latest count on or before it, summed), from the day before
 * the previous period to the period's last day: the series for the chart and the growth of both periods.
 */
export async function getFollowerSeries(db: Executor, scope: AnalyticsScope & { fromDay: string; toDay: string }) {
  return rows<{ day: string; followers: number | null }>(
    await db.execute(sql`
      with days as (
        select to_char(d, 'YYYY-MM-DD') as day from generate_series(${scope.fromDay}::date, ${scope.toDay}::date, interval '1 day') d
      ), accounts as (
        select a.id from social_accounts a where a.workspace_id = ${scope.workspaceId} ${onAccounts(scope, sql`a.id`)}
      )
      select days.day, sum(latest.followers)::float8 as followers
      from days cross join accounts
      left join lateral (
        select s.followers from follower_snapshots s
        where s.account_id = accounts.id and s.day <= days.day order by s.day desc limit 1
      ) latest on true
      group by days.day order by days.day`),
  ).map((r) => ({ day: r.day, followers: r.followers === null ? null : Number(r.followers) }));
}

/** Per day of the period (the workspace's days): posts published, their engagement and views (latest readings). */
export async function getDailyEngagement(db: Executor, scope: AnalyticsScope) {
  return rows<{ day: string; posts: number; engagement: number | null; views: number | null }>(
    await db.execute(sql`
      select to_char(m.published_at at time zone ${scope.timeZone}, 'YYYY-MM-DD') as day,
        count(*) filter (where ${isPost})::int as posts,
        sum(m.engagement)::float8 as engagement, sum(m.views)::float8 as views
      from post_metrics m
      where m.workspace_id = ${scope.workspaceId} and m.published_at >= ${stamp(scope.from)}
        and m.published_at < ${stamp(scope.to)} ${onAccounts(scope, sql`m.account_id`)}
      group by 1 order by 1`),
  ).map((r) => ({
    ...r,
    engagement: r.engagement === null ? null : Number(r.engagement),
    views: r.views === null ? null : Number(r.views),
  }));
}

export type RankedPost = {
  deliveryId: string;
  postId: string;
  text: string;
  accountId: string;
  account: string;
  provider: ProviderName;
  publishedAt: string;
  url: string | null;
  metrics: Record<MetricName, number | null>;
  engagement: number | null;
  /** Engagement per view where the network counts views, else per follower of the account. */
  rate: number | null;
  rateBasis: 'views' | 'followers' | null;
};

/**
 * The period's posts ranked by engagement rate: engagement ÷ views where the network counts views, else ÷ the
 * account's followers (its latest count); ties by engagement. `limit` rows.
 */
export async function listTopPosts(db: Executor, scope: AnalyticsScope & { limit: number }): Promise<RankedPost[]> {
  const result = rows<Record<string, unknown>>(
    await db.execute(sql`
      with ranked as (
        select m.*, case when m.views > 0 then m.engagement::float8 / m.views
            when f.followers > 0 then m.engagement::float8 / f.followers end as rate,
          case when m.views > 0 then 'views' when f.followers > 0 then 'followers' end as basis
        from post_metrics m
        left join lateral (
          select s.followers from follower_snapshots s where s.account_id = m.account_id order by s.day desc limit 1
        ) f on true
        where m.workspace_id = ${scope.workspaceId} and m.published_at >= ${stamp(scope.from)}
          and m.published_at < ${stamp(scope.to)} and m.engagement is not null and ${isPost}
          ${onAccounts(scope, sql`m.account_id`)}
        order by rate desc nulls last, m.engagement desc, m.delivery_id
        limit ${scope.limit}
      )
      select r.delivery_id as "deliveryId", r.post_id as "postId", ${deliveryTextSql} as text,
        r.account_id as "accountId", a.handle as account, r.provider, to_json(r.published_at)#>>'{}' as "publishedAt",
        d.external_url as url, ${sql.raw(METRIC_NAMES.map((m) => `r.${m}::float8 as ${m}`).join(', '))},
        r.engagement::float8 as engagement, r.rate, r.basis
      from ranked r
      join deliveries d on d.id = r.delivery_id
      join posts p on p.id = r.post_id
      join social_accounts a on a.id = r.account_id
      order by r.rate desc nulls last, r.engagement desc, r.delivery_id`),
  );
  return result.map((r) => ({
    deliveryId: r.deliveryId as string,
    postId: r.postId as string,
    text: r.text as string,
    accountId: r.accountId as string,
    account: r.account as string,
    provider: r.provider as ProviderName,
    publishedAt: r.publishedAt as string,
    url: (r.url as string | null) ?? null,
    metrics: Object.fromEntries(METRIC_NAMES.map((m) => [m, r[m] === null ? null : Number(r[m])])) as Record<
      MetricName,
      number | null
    >,
    engagement: r.engagement === null ? null : Number(r.engagement),
    rate: r.rate === null ? null : Number(r.rate),
    rateBasis: (r.basis as 'views' | 'followers' | null) ?? null,
  }));
}

/**
 * "Best time to post", from the workspace's own history: per weekday (ISO, 1 = Monday) and hour of its zone, the
 * posts published then in the `historyDays` before the period's end and their average engagement.
 */
export async function getEngagementByHour(db: Executor, scope: AnalyticsScope & { historyDays: number }) {
  const since = new Date(scope.to.getTime() - scope.historyDays * 86_400_000);
  return rows<{ weekday: number; hour: number; posts: number; avgEngagement: number }>(
    await db.execute(sql`
      select extract(isodow from m.published_at at time zone ${scope.timeZone})::int as weekday,
        extract(hour from m.published_at at time zone ${scope.timeZone})::int as hour,
        count(*)::int as posts, avg(m.engagement)::float8 as "avgEngagement"
      from post_metrics m
      where m.workspace_id = ${scope.workspaceId} and m.published_at >= ${stamp(since)}
        and m.published_at < ${stamp(scope.to)} and m.engagement is not null and ${isPost}
        ${onAccounts(scope, sql`m.account_id`)}
      group by 1, 2 order by 1, 2`),
  ).map((r) => ({ ...r, avgEngagement: Number(r.avgEngagement) }));
}

/** Per network: posts, engagement, views and the metrics it gives, in the period. */
export async function getNetworkBreakdown(db: Executor, scope: AnalyticsScope) {
  const result = rows<Record<string, unknown>>(
    await db.execute(sql`
      select m.provider, count(*) filter (where ${isPost})::int as posts, ${sums(sql`true`)}
      from post_metrics m
      where m.workspace_id = ${scope.workspaceId} and m.published_at >= ${stamp(scope.from)}
        and m.published_at < ${stamp(scope.to)} ${onAccounts(scope, sql`m.account_id`)}
      group by m.provider order by sum(m.engagement) desc nulls last, m.provider`),
  );
  return result.map((r) => ({ provider: r.provider as ProviderName, ...totalsOf(r) }));
}

/** The accounts a filter may name: the workspace's own (connected or not), for the page's account filter. */
export async function listAnalyticsAccounts(db: Executor, params: { workspaceId: string }) {
  return rows<{ id: string; handle: string; provider: ProviderName; disconnected: boolean }>(
    await db.execute(sql`
      select a.id, a.handle, a.provider, a.disconnected_at is not null as disconnected
      from social_accounts a where a.workspace_id = ${params.workspaceId}
      order by a.provider, a.handle`),
  );
}

/**
 * Every reading of the posts published in the period, oldest post first (the CSV export): one row per snapshot with
 * its post, account and the metrics it read (null: the network does not give it).
 */
export async function listMetricSnapshotsForExport(db: Executor, scope: AnalyticsScope) {
  return rows<Record<string, unknown>>(
    await db.execute(sql`
      select to_json(m.published_at)#>>'{}' as "publishedAt", a.handle as account, m.provider,
        ${deliveryTextSql} as text, d.external_url as url, s.reading,
        to_json(s.reading_at)#>>'{}' as "readingAt", to_json(s.taken_at)#>>'{}' as "takenAt",
        ${sql.raw(METRIC_NAMES.map((m) => `s.${m}::float8 as ${m}`).join(', '))}
      from post_metrics m
      join metric_snapshots s on s.delivery_id = m.delivery_id
      join deliveries d on d.id = m.delivery_id
      join posts p on p.id = m.post_id
      join social_accounts a on a.id = m.account_id
      where m.workspace_id = ${scope.workspaceId} and m.published_at >= ${stamp(scope.from)}
        and m.published_at < ${stamp(scope.to)} ${onAccounts(scope, sql`m.account_id`)}
      order by m.published_at, m.delivery_id, s.reading_at`),
  );
}

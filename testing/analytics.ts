import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';

/**
 * Sent posts with their metric history, written in a few statements whatever the count (the analytics tests and the
 * benchmark): `posts` posts published evenly over [from, to), round-robin over the accounts, each a sent delivery
 * with a post_metrics row and `readings` snapshots; the numbers are a deterministic function of the post's index
 * (`likes = i % 50`, `views = 20 × likes + 7`…), and the accounts' `noViews` give no views (null, as Mastodon). One
 * follower snapshot per account and day of the range. Returns the post ids in index order.
 */
export async function insertMetricHistory(
  db: Executor,
  params: {
    workspaceId: string;
    accountIds: string[];
    posts: number;
    from: Date;
    to: Date;
    readings: number;
    /** Accounts whose network counts no views. */
    noViews?: string[];
    label?: string;
  },
): Promise<string[]> {
  const stepMs = (params.to.getTime() - params.from.getTime()) / params.posts;
  const accounts = JSON.stringify(params.accountIds);
  const noViews = JSON.stringify(params.noViews ?? []);
  const result = await db.execute<{ id: string }>(sql`
    with p as (
      insert into posts (workspace_id, text, scheduled_at, source, idempotency_key)
      select ${params.workspaceId}::uuid, ${`${params.label ?? 'metrics'} #`} || i,
        ${params.from.toISOString()}::timestamptz + make_interval(secs => i * ${stepMs / 1000}::float8),
        'api', gen_random_uuid()::text
      from generate_series(0, ${params.posts - 1}) i
      returning id, workspace_id, scheduled_at, split_part(text, '#', 2)::int as i
    ), d as (
      insert into deliveries (workspace_id, post_id, account_id, due_at, status, settled_at, external_id)
      select p.workspace_id, p.id, (${accounts}::jsonb ->> (p.i % ${params.accountIds.length}))::uuid, p.scheduled_at,
        'sent', p.scheduled_at, 'ext-' || p.i
      from p
      returning id, post_id, account_id, workspace_id, due_at
    ), m as (
      insert into post_metrics (delivery_id, workspace_id, post_id, account_id, provider, published_at, next_reading,
        next_due_at, read_at, views, likes, reposts, replies, quotes, saves, clicks, engagement)
      select d.id, d.workspace_id, d.post_id, d.account_id, a.provider, d.due_at, ${params.readings}, null, d.due_at,
        case when ${noViews}::jsonb ? d.account_id::text then null else 20 * (p.i % 50) + 7 end,
        p.i % 50, p.i % 7, p.i % 5, null, p.i % 3, null,
        (p.i % 50) + (p.i % 7) + (p.i % 5) + (p.i % 3)
      from d join p on p.id = d.post_id join social_accounts a on a.id = d.account_id
      returning delivery_id, workspace_id, published_at, likes, views
    ), s as (
      insert into metric_snapshots (workspace_id, delivery_id, reading, reading_at, taken_at, views, likes, reposts, replies, saves)
      select m.workspace_id, m.delivery_id, r, m.published_at + make_interval(hours => 1 + r * 24),
        m.published_at + make_interval(hours => 1 + r * 24), m.views, greatest(0, m.likes - (${params.readings} - 1 - r)),
        0, 0, 0
      from m cross join generate_series(0, ${params.readings - 1}) r
      returning 1
    )
    select p.id from p order by p.i`);
  await db.execute(sql`
    insert into follower_snapshots (account_id, workspace_id, day, followers)
    select a.id, a.workspace_id, to_char(day, 'YYYY-MM-DD'),
      1000 + (extract(epoch from day - ${params.from.toISOString()}::timestamptz) / 86400)::int * 10
    from social_accounts a
    cross join generate_series(${params.from.toISOString()}::timestamptz - interval '1 day', ${params.to.toISOString()}::timestamptz, interval '1 day') day
    where a.id = any(${`{${params.accountIds.join(',')}}`}::uuid[])
    on conflict (account_id, day) do nothing`);
  return [...result].map((r) => r.id);
}

/** What insertMetricHistory wrote for post `i`, for tests that compute the expected figures themselves. */
export function expectedMetrics(i: number, withViews: boolean) {
  const likes = i % 50;
  return {
    views: withViews ? 20 * likes + 7 : null,
    likes,
    reposts: i % 7,
    replies: i % 5,
    quotes: null,
    saves: i % 3,
    clicks: null,
    engagement: likes + (i % 7) + (i % 5) + (i % 3),
  };
}

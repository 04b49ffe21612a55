// Browser-safe: the metrics a network may report for a post, one column each in metric_snapshots and post_metrics
// (docs/analytics.md#metrics). A network that does not give one leaves it null: absent, never zero.

/** Each network's own name maps onto one of these (X retweets, Mastodon boosts, TikTok shares → reposts). */
export const METRIC_NAMES = ['views', 'likes', 'reposts', 'replies', 'quotes', 'saves', 'clicks'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** What counts as engagement: every interaction, not the views (docs/analytics.md#engagement). */
export const ENGAGEMENT_METRICS = [
  'likes',
  'reposts',
  'replies',
  'quotes',
  'saves',
  'clicks',
] as const satisfies readonly MetricName[];

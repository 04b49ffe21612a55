import { FEED_POLL_DEFAULTS, pollFeeds } from '@/lib/feeds/poll';
import { defineJob } from './job';

/** Feeds: each due feed fetched (conditionally, through the outbound guard) and its new items posted once (lib/feeds/poll.ts). */
export const feedsJob = defineJob({
  name: 'feeds',
  run: (db, options: typeof FEED_POLL_DEFAULTS) => pollFeeds(db, options),
  defaults: () => FEED_POLL_DEFAULTS,
  cadence: { everyMs: 60_000 },
});

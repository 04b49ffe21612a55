/**
 * The most media one post (or thread part) holds: Instagram's carousel of 10. Each network's own limit
 * (PROVIDER_META[...].media.maxPerPost) is checked on top; `post_media_position_ck` holds this one.
 * Beside the schema, browser-safe: the composer imports it.
 */
export const MAX_MEDIA_PER_POST = 10;
/** A thread part's: threads go to X, Mastodon, Bluesky and Threads, four images each at most. */
export const MAX_MEDIA_PER_PART = 4;

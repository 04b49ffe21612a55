// Browser-safe: the composer, the API schema and the database constraints share these limits.

/** A thread has at least this many parts (fewer is a post). */
export const MIN_THREAD_PARTS = 2;
/** And at most this many (held by the database too: post_parts_position_ck, deliveries_part_ck). */
export const MAX_THREAD_PARTS = 25;

import { randomInt } from 'node:crypto';

// Post ids like X's and Mastodon's snowflakes: milliseconds since an epoch in the high bits, random low
// bits. Not guessable (22 random bits per millisecond), numeric strings (clients check /^\d+$/), and
// ordering by id is ordering by creation time (to the millisecond).

const EPOCH_MS = 1_288_834_974_657n; // X's snowflake epoch
const RANDOM_BITS = 22n;

let lastId = 0n;
let lastMs = 0n;

/**
 * Within one millisecond a real snowflake counts up (a sequence), so a later post always has a larger id; random low
 * bits alone would order two posts of the same millisecond by chance. Here a later id of the same millisecond is
 * the last one plus a small random step: still unguessable, never smaller than an id of the same or an earlier
 * time.
 */
export function newPostId(createdAt: Date): string {
  const ms = BigInt(createdAt.getTime()) - EPOCH_MS;
  let id = (ms << RANDOM_BITS) | BigInt(randomInt(0, 2 ** Number(RANDOM_BITS)));
  if (ms >= lastMs && id <= lastId) id = lastId + 1n + BigInt(randomInt(0, 64));
  if (id > lastId) [lastId, lastMs] = [id, ms > lastMs ? ms : lastMs];
  return String(id);
}

const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** A post id as a bigint, or null when the text cannot be one (so lookups never throw on bad input). */
export function parsePostId(id: string | undefined | null): bigint | null {
  if (!id || !/^\d{1,19}$/.test(id)) return null;
  const value = BigInt(id);
  return value <= MAX_BIGINT ? value : null;
}

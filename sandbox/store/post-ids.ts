import { randomInt } from 'node:crypto';

// Post ids like X's and Mastodon's snowflakes: milliseconds since an epoch in the high bits, random low
// bits. Not guessable (22 random bits per millisecond), numeric strings (clients check /^\d+$/), and
// ordering by id is ordering by creation time (to the millisecond).

const EPOCH_MS = 1_288_834_974_657n; // X's snowflake epoch
const RANDOM_BITS = 22n;

export function newPostId(createdAt: Date): string {
  const ms = BigInt(createdAt.getTime()) - EPOCH_MS;
  return String((ms << RANDOM_BITS) | BigInt(randomInt(0, 2 ** Number(RANDOM_BITS))));
}

const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** A post id as a bigint, or null when the text cannot be one (so lookups never throw on bad input). */
export function parsePostId(id: string | undefined | null): bigint | null {
  if (!id || !/^\d{1,19}$/.test(id)) return null;
  const value = BigInt(id);
  return value <= MAX_BIGINT ? value : null;
}

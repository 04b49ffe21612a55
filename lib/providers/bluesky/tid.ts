import { createHash } from 'node:crypto';

// AT Protocol timestamp identifiers (https://atproto.com/specs/tid): a 64-bit integer (top bit 0, 53 bits of
// microseconds since the epoch, 10 bits of "clock id") written as 13 base32-sortable characters.

const ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';
/** The spec's reference syntax. */
export const TID_SYNTAX = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const MAX_TIMESTAMP_US = 2n ** 53n - 1n;
const HOUR_US = 3_600_000_000n;

export function isTid(value: string): boolean {
  return TID_SYNTAX.test(value);
}

export function encodeTid(timestampUs: bigint, clockId: number): string {
  if (timestampUs < 0n || timestampUs > MAX_TIMESTAMP_US) throw new RangeError('TID timestamp out of range');
  if (!Number.isInteger(clockId) || clockId < 0 || clockId > 1023) throw new RangeError('TID clock id out of range');
  let value = (timestampUs << 10n) | BigInt(clockId);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function decodeTid(tid: string): { timestampUs: bigint; clockId: number } | null {
  if (!isTid(tid)) return null;
  let value = 0n;
  for (const c of tid) value = (value << 5n) | BigInt(ALPHABET.indexOf(c));
  return { timestampUs: value >> 10n, clockId: Number(value & 1023n) };
}

/**
 * The record key of one delivery's post: the same on every attempt and at every read, so a resend can
 * only ever meet the record an earlier attempt wrote (putRecord with swapRecord: null; see client.ts).
 *
 * Derived from the delivery id and the hour of its frozen `createdAt` (the first attempt's start, which the
 * publisher and the reconciler both read from the attempts table):
 * - timestamp = the start of that UTC hour + (SHA-256(delivery id) mod one hour, in µs): a real-looking TID
 *   within an hour of the post, so the repo stays in time order for everything that reads it by key;
 * - clock id = the next 10 bits of the same hash.
 * Not the createdAt to the microsecond: every delivery of one publisher batch shares its statement's now(),
 * and a 10-bit clock id alone would then collide once in 1,024 pairs. Here two deliveries of one account
 * collide only when they start in the same hour and 41.7 bits of hash agree; readBack checks the record's
 * text, so even that would go to review instead of being taken for this delivery's post.
 */
export function recordKeyFor(deliveryId: string, createdAt: Date): string {
  const digest = createHash('sha256').update(`semel/bluesky/record-key/${deliveryId}`).digest();
  const hourStartUs = (BigInt(createdAt.getTime()) / 3_600_000n) * HOUR_US;
  const offsetUs = digest.readBigUInt64BE(0) % HOUR_US;
  const clockId = digest.readUInt16BE(8) & 1023;
  return encodeTid(hourStartUs + offsetUs, clockId);
}

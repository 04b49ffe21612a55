// An AT Protocol TID (atproto.com/specs/tid) as a PDS writes a commit's `rev`: 53 bits of microseconds since the
// epoch and a 10-bit clock id, as 13 base32-sortable characters. Apart from the client's lib/providers/bluesky/tid.ts.

const SORTABLE_BASE32 = '234567abcdefghijklmnopqrstuvwxyz';

export function tidOf(timestampUs: bigint, clockId: number): string {
  let value = ((timestampUs & (2n ** 53n - 1n)) << 10n) | BigInt(clockId & 1023);
  let out = '';
  for (let i = 0; i < 13; i++, value >>= 5n) out = SORTABLE_BASE32[Number(value & 31n)] + out;
  return out;
}

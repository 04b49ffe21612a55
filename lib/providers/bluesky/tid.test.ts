import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TID_SYNTAX, decodeTid, encodeTid, isTid, recordKeyFor } from './tid';

describe('TIDs (atproto.com/specs/tid)', () => {
  it('encodes the spec’s examples: zero is 2222222222222, and a known timestamp + clock id', () => {
    expect(encodeTid(0n, 0)).toBe('2222222222222');
    // @atcute/tid's README: TID.create(1724171495793000, 512) → "3l25zusnsfck2".
    expect(encodeTid(1_724_171_495_793_000n, 512)).toBe('3l25zusnsfck2');
    expect(decodeTid('3l25zusnsfck2')).toEqual({ timestampUs: 1_724_171_495_793_000n, clockId: 512 });
  });

  it('refuses what is not a TID', () => {
    for (const bad of ['', '3l25zusnsfck', '3l25zusnsfck22', 'kl25zusnsfck2', '3L25ZUSNSFCK2', '3l25zusnsfck1'])
      expect(isTid(bad)).toBe(false);
    expect(decodeTid('not-a-tid')).toBeNull();
    expect(() => encodeTid(2n ** 53n, 0)).toThrow(RangeError);
    expect(() => encodeTid(0n, 1024)).toThrow(RangeError);
  });

  it('sorts as text the way it sorts as time', () => {
    const keys = [5n, 1_000_000n, 1_724_171_495_793_000n, 2n ** 53n - 1n].map((t) => encodeTid(t, 7));
    expect([...keys].sort()).toEqual(keys);
  });
});

describe('the record key of a delivery', () => {
  const createdAt = new Date('2026-03-01T12:34:56.789Z');

  it('is valid TID syntax, the same on every attempt and at every read (stable)', () => {
    for (let i = 0; i < 200; i++) {
      const id = randomUUID();
      const key = recordKeyFor(id, createdAt);
      expect(key).toMatch(TID_SYNTAX);
      expect(recordKeyFor(id, new Date(createdAt))).toBe(key);
    }
    // Pinned: a change to the derivation would strand every delivery published under the old one.
    expect(recordKeyFor('9b2f1d0e-3c4a-4e5f-8a6b-7c8d9e0f1a2b', createdAt)).toBe('3mfyqao4qlqra');
  });

  it('depends on the hour of createdAt only, and stays within that hour', () => {
    const id = randomUUID();
    const key = recordKeyFor(id, createdAt);
    expect(recordKeyFor(id, new Date('2026-03-01T12:59:59.999Z'))).toBe(key);
    expect(recordKeyFor(id, new Date('2026-03-01T13:00:00.000Z'))).not.toBe(key);
    const { timestampUs } = decodeTid(key)!;
    const hour = BigInt(Date.parse('2026-03-01T12:00:00Z')) * 1000n;
    expect(timestampUs >= hour && timestampUs < hour + 3_600_000_000n).toBe(true);
  });

  it('differs between deliveries that start together (one publisher batch shares its now())', () => {
    const keys = new Set(Array.from({ length: 5_000 }, () => recordKeyFor(randomUUID(), createdAt)));
    expect(keys.size).toBe(5_000);
  });
});

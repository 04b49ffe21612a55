import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';
import { startTestS3 } from '@/testing/s3';
import { sha256OfFile, type MediaStorage } from './media-storage';
import { createS3MediaStorage } from './s3-storage';
import { createDiskMediaStorage, sha256Hex } from './storage';

// One contract, both stores: local disk, and an S3-compatible server started here (s3rver, in-process, on its own
// directory) through the same AWS SDK calls a real bucket gets.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'semel-media-stores-'));
const s3 = await startTestS3(scratch);
afterAll(async () => {
  await s3.close();
  rmSync(scratch, { recursive: true, force: true });
});

const diskRoot = path.join(scratch, 'disk');
const stores: { name: string; storage: () => MediaStorage; stored: () => Promise<string[]> }[] = [
  {
    name: 'local disk',
    storage: () => createDiskMediaStorage(diskRoot),
    // Nothing is there before the first put (a test may run alone: the race pass runs only those named after one).
    stored: async () =>
      existsSync(diskRoot)
        ? readdirSync(diskRoot, { recursive: true, encoding: 'utf8' }).filter((f) => /[0-9a-f]{64}$/.test(f))
        : [],
  },
  {
    name: 'S3-compatible bucket',
    storage: () => createS3MediaStorage(s3.config),
    stored: s3.keys,
  },
];

const bytesOf = (text: string) => new TextEncoder().encode(text);
const readAll = async (body: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe.each(stores)('media storage: $name', ({ storage, stored, name }) => {
  it('stores bytes under their SHA-256 and reads them back', async () => {
    const bytes = bytesOf(`an image's bytes (${name})`);
    const { sha256 } = await storage().put(bytes);
    expect(sha256).toBe(sha256Hex(bytes));
    expect(await storage().get(sha256)).toEqual(bytes);
    if (name !== 'local disk')
      expect(await stored()).toContain(`media/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`);
  });

  it('the same bytes put again, and twice at once, are one stored copy', async () => {
    const bytes = bytesOf(`stored once (${name})`);
    const before = (await stored()).length;
    await storage().put(bytes);
    await Promise.all([storage().put(bytes), storage().put(bytes)]);
    expect((await stored()).length).toBe(before + 1);
    expect(await storage().get(sha256Hex(bytes))).toEqual(bytes);
  });

  it('stores a file by streaming it (larger than one S3 part), and reads it back whole or by range', async () => {
    const file = path.join(scratch, `video-${name.replace(/\W/g, '')}.bin`);
    const bytes = randomBytes(9 * 1024 * 1024);
    writeFileSync(file, bytes);
    const sha256 = await sha256OfFile(file);
    expect(sha256).toBe(sha256Hex(bytes));
    const before = (await stored()).length;
    await Promise.all([storage().putFile(file, sha256), storage().putFile(file, sha256)]);
    expect(await storage().putFile(file, sha256)).toEqual({ sha256, size: bytes.length });
    expect((await stored()).length).toBe(before + 1);
    expect(await storage().size(sha256)).toBe(bytes.length);
    const whole = await storage().open(sha256);
    expect(whole!.size).toBe(bytes.length);
    expect((await readAll(whole!.body)).equals(bytes)).toBe(true);
    const range = await storage().open(sha256, { start: 1000, end: 1999 });
    expect(range!.size).toBe(bytes.length);
    expect((await readAll(range!.body)).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect(await storage().open(sha256Hex(bytesOf('absent')))).toBeNull();
  });

  it('refuses a file whose bytes are not the address it is given', async () => {
    const file = path.join(scratch, `mismatch-${name.replace(/\W/g, '')}.bin`);
    writeFileSync(file, 'these bytes');
    if (name === 'local disk')
      await expect(storage().putFile(file, sha256Hex(bytesOf('other bytes')))).rejects.toThrow(/changed/);
    await expect(storage().putFile(file, '../x')).rejects.toThrow(/SHA-256/);
  });

  it('an unknown address reads as nothing; a malformed one is never looked up', async () => {
    expect(await storage().get(sha256Hex(bytesOf(`never stored (${name})`)))).toBeNull();
    expect(await storage().get('../../etc/passwd')).toBeNull();
    expect(await storage().removeUnlessWrittenSince('not-an-address', new Date(Date.now() + 60_000))).toBe(false);
  });

  it('removes bytes written before the cut-off, keeps bytes written since', async () => {
    const bytes = bytesOf(`pruned (${name})`);
    const { sha256 } = await storage().put(bytes);
    // Written just now: not before a cut-off a second ago (S3 keeps Last-Modified to the second, so within a second
    // of the cut-off counts as written since).
    expect(await storage().removeUnlessWrittenSince(sha256, new Date(Date.now() - 1_000))).toBe(false);
    expect(await storage().get(sha256)).toEqual(bytes);
    expect(await storage().removeUnlessWrittenSince(sha256, new Date(Date.now() + 5_000))).toBe(true);
    expect(await storage().get(sha256)).toBeNull();
    expect(await storage().removeUnlessWrittenSince(sha256, new Date(Date.now() + 5_000))).toBe(false);
  });
});

describe('MEDIA_S3_* configuration', () => {
  const base = { NODE_ENV: 'test', SEMEL_DATA_DIR: scratch } as const;
  const parse = (vars: Record<string, string>) => parseEnv({ ...base, ...vars } as unknown as NodeJS.ProcessEnv);

  it('unset: media stay on disk under MEDIA_DIR', () => {
    expect(parse({}).mediaS3).toBeNull();
  });

  it('a bucket with an endpoint: path-style addressing by default, keys as given', () => {
    expect(
      parse({
        MEDIA_S3_BUCKET: 'semel-media',
        MEDIA_S3_ENDPOINT: 'http://minio.internal:9000',
        MEDIA_S3_ACCESS_KEY_ID: 'id',
        MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
        MEDIA_S3_PREFIX: 'semel/',
      }).mediaS3,
    ).toEqual({
      bucket: 'semel-media',
      endpoint: 'http://minio.internal:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      prefix: 'semel/',
      forcePathStyle: true,
    });
    expect(parse({ MEDIA_S3_BUCKET: 'semel-media' }).mediaS3).toMatchObject({
      endpoint: null,
      credentials: null,
      forcePathStyle: false,
    });
  });

  it('refuses half a configuration, naming what is missing', () => {
    expect(() => parse({ MEDIA_S3_BUCKET: 'semel-media', MEDIA_S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /set both or neither/,
    );
    expect(() => parse({ MEDIA_S3_ENDPOINT: 'http://minio.internal:9000' })).toThrow(/MEDIA_S3_BUCKET: required/);
    expect(() => parse({ MEDIA_S3_BUCKET: 'semel-media', MEDIA_S3_PREFIX: 'a b' })).toThrow(/MEDIA_S3_PREFIX/);
  });
});

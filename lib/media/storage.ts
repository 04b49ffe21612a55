import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { getEnv } from '@/lib/env';
import { SHA256, sha256Hex, type MediaStorage } from './media-storage';

export { sha256Hex, type MediaStorage } from './media-storage';

/** Files under `root/ab/cd/<sha256>`; written to a temporary name and renamed, so a reader never sees half a file. */
export function createDiskMediaStorage(root: string): MediaStorage {
  const fileOf = (sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  /** Writes to a temporary name and renames: atomic, and a concurrent writer of the same bytes renames identical content. */
  async function writeAt(sha256: string, write: (temporary: string) => Promise<void>) {
    const file = fileOf(sha256);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    try {
      await write(temporary);
      await rename(temporary, file);
    } finally {
      await rm(temporary, { force: true });
    }
  }
  const sizeOf = async (sha256: string) => {
    try {
      return (await stat(fileOf(sha256))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      await writeAt(sha256, (temporary) => writeFile(temporary, bytes, { mode: 0o640 }));
      return { sha256 };
    },
    async putFile(source, sha256) {
      if (!SHA256.test(sha256)) throw new Error('not a SHA-256 address');
      let size = 0;
      await writeAt(sha256, async (temporary) => {
        // Hashed as it is copied: a file changed since the caller hashed it is never stored under the old address.
        const hash = createHash('sha256');
        const hashing = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            size += chunk.length;
            done(null, chunk);
          },
        });
        await pipeline(createReadStream(source), hashing, createWriteStream(temporary, { mode: 0o640 }));
        if (hash.digest('hex') !== sha256) throw new Error('the file changed while it was stored');
      });
      return { sha256, size };
    },
    async open(sha256, range) {
      if (!SHA256.test(sha256)) return null;
      const size = await sizeOf(sha256);
      if (size === null) return null;
      return { body: createReadStream(fileOf(sha256), range ?? {}), size };
    },
    size: async (sha256) => (SHA256.test(sha256) ? sizeOf(sha256) : null),
    async get(sha256) {
      if (!SHA256.test(sha256)) return null;
      try {
        return new Uint8Array(await readFile(fileOf(sha256)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async removeUnlessWrittenSince(sha256, before) {
      if (!SHA256.test(sha256)) return false;
      try {
        if ((await stat(fileOf(sha256))).mtime.getTime() >= before.getTime()) return false;
        await rm(fileOf(sha256), { force: true });
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
  };
}

let cached: { where: string; storage: MediaStorage } | undefined;

/**
 * The app's storage: the MEDIA_S3_* bucket when MEDIA_S3_BUCKET is set (the S3 client is loaded on first use, so
 * a disk install never loads it), otherwise MEDIA_DIR (default `.data/media`).
 */
export function getMediaStorage(): MediaStorage {
  const env = getEnv();
  const s3 = env.mediaS3;
  const where = s3 ? `s3:${s3.endpoint ?? ''}/${s3.bucket}/${s3.prefix}` : path.resolve(env.MEDIA_DIR);
  if (cached?.where !== where) cached = { where, storage: s3 ? lazyS3(s3) : createDiskMediaStorage(where) };
  return cached.storage;
}

function lazyS3(config: NonNullable<ReturnType<typeof getEnv>['mediaS3']>): MediaStorage {
  let loaded: Promise<MediaStorage> | undefined;
  const storage = () => (loaded ??= import('./s3-storage').then((m) => m.createS3MediaStorage(config)));
  return {
    put: async (bytes) => (await storage()).put(bytes),
    putFile: async (file, sha256) => (await storage()).putFile(file, sha256),
    get: async (sha256) => (await storage()).get(sha256),
    open: async (sha256, range) => (await storage()).open(sha256, range),
    size: async (sha256) => (await storage()).size(sha256),
    removeUnlessWrittenSince: async (sha256, before) => (await storage()).removeUnlessWrittenSince(sha256, before),
  };
}

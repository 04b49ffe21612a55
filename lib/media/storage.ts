import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getEnv } from '@/lib/env';
import { SHA256, sha256Hex, type MediaStorage } from './media-storage';

export { sha256Hex, type MediaStorage } from './media-storage';

/** Files under `root/ab/cd/<sha256>`; written to a temporary name and renamed, so a reader never sees half a file. */
export function createDiskMediaStorage(root: string): MediaStorage {
  const fileOf = (sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      const file = fileOf(sha256);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, bytes, { mode: 0o640 });
        await rename(temporary, file); // atomic; a concurrent writer of the same bytes renames identical content
      } finally {
        await rm(temporary, { force: true });
      }
      return { sha256 };
    },
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
    get: async (sha256) => (await storage()).get(sha256),
    removeUnlessWrittenSince: async (sha256, before) => (await storage()).removeUnlessWrittenSince(sha256, before),
  };
}

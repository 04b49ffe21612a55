import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getEnv } from '@/lib/env';

/**
 * Where image bytes live, addressed by their SHA-256: the same bytes are stored once, and writing them again
 * is harmless (so a retried upload or two racing ones never conflict). Local disk today; an object store
 * would implement the same two calls.
 */
export interface MediaStorage {
  /** Stores the bytes (idempotent) and returns their address. */
  put(bytes: Uint8Array): Promise<{ sha256: string }>;
  /** The bytes at this address, or null when there are none. */
  get(sha256: string): Promise<Uint8Array | null>;
  /**
   * Removes the bytes unless they were written since `before` (an upload of the same bytes rewrites the file, so
   * bytes a new row is about to name are kept). Returns whether they were removed.
   */
  removeUnlessWrittenSince(sha256: string, before: Date): Promise<boolean>;
}

const SHA256 = /^[0-9a-f]{64}$/;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

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

let cached: { root: string; storage: MediaStorage } | undefined;

/** The app's storage, under MEDIA_DIR (default `.data/media`). */
export function getMediaStorage(): MediaStorage {
  const root = path.resolve(getEnv().MEDIA_DIR);
  if (cached?.root !== root) cached = { root, storage: createDiskMediaStorage(root) };
  return cached.storage;
}

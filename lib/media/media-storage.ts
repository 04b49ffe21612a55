import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * Where media bytes live, addressed by their SHA-256: the same bytes are stored once, and writing them again
 * is harmless (so a retried upload or two racing ones never conflict). Two stores implement it: local disk
 * (lib/media/storage.ts) and an S3-compatible bucket (lib/media/s3-storage.ts).
 */
export interface MediaStorage {
  /** Stores the bytes (idempotent) and returns their address. */
  put(bytes: Uint8Array): Promise<{ sha256: string }>;
  /**
   * Stores a file's bytes (a video: never read into memory) under `sha256`, which the caller has computed from the
   * file (`sha256OfFile`); a store that reads the bytes anyway checks it. Idempotent, like `put`.
   */
  putFile(file: string, sha256: string): Promise<{ sha256: string; size: number }>;
  /** The bytes at this address, or null when there are none. */
  get(sha256: string): Promise<Uint8Array | null>;
  /**
   * The bytes at this address as a stream, whole or one inclusive byte range (a Range request, a provider's chunked
   * upload), with the stored size; null when there are none. The range must lie within the size (see `size`).
   */
  open(sha256: string, range?: ByteRange): Promise<{ body: Readable; size: number } | null>;
  /** The stored size in bytes, or null when there are none. */
  size(sha256: string): Promise<number | null>;
  /**
   * Removes the bytes unless they were written since `before` (an upload of the same bytes rewrites the file, so
   * bytes a new row is about to name are kept). Returns whether they were removed.
   */
  removeUnlessWrittenSince(sha256: string, before: Date): Promise<boolean>;
}

/** An address as the stores write it: 64 lowercase hex digits (anything else is never read or removed). */
export const SHA256 = /^[0-9a-f]{64}$/;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Inclusive, as in an HTTP Range header: `{ start: 0, end: 0 }` is the first byte. */
export type ByteRange = { start: number; end: number };

/** A file's SHA-256 (hex), read as a stream: a 1 GB video never sits in memory. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

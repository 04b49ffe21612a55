import { createHash } from 'node:crypto';

/**
 * Where image bytes live, addressed by their SHA-256: the same bytes are stored once, and writing them again
 * is harmless (so a retried upload or two racing ones never conflict). Two stores implement it: local disk
 * (lib/media/storage.ts) and an S3-compatible bucket (lib/media/s3-storage.ts).
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

/** An address as the stores write it: 64 lowercase hex digits (anything else is never read or removed). */
export const SHA256 = /^[0-9a-f]{64}$/;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

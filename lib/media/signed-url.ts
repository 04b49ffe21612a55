import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed image URL works: Threads fetches the image while it creates the container, within minutes. */
export const SIGNED_URL_TTL_MS = 60 * 60_000;

/** A key for image URLs only, derived from APP_ENCRYPTION_KEY (a leaked URL signature reveals nothing else). */
function urlKey(encryptionKey: string): Buffer {
  return createHmac('sha256', Buffer.from(encryptionKey, 'base64')).update('semel:media-url:v1').digest();
}

const signature = (key: string, sha256: string, expires: number) =>
  createHmac('sha256', urlKey(key)).update(`${sha256}.${expires}`).digest('base64url');

/**
 * A URL from which anyone holding it may fetch one stored image until it expires: how a platform that fetches
 * images itself (Threads) gets them. It names the content hash only, never the workspace or the post.
 */
export function signedMediaUrl(params: {
  origin: string;
  sha256: string;
  encryptionKey: string;
  now?: number;
  ttlMs?: number;
}): string {
  const expires = Math.floor(((params.now ?? Date.now()) + (params.ttlMs ?? SIGNED_URL_TTL_MS)) / 1000);
  const sig = signature(params.encryptionKey, params.sha256, expires);
  return `${params.origin.replace(/\/+$/, '')}/api/media/${params.sha256}?expires=${expires}&sig=${sig}`;
}

/** Whether a request's signature is ours and not expired (compared in constant time). */
export function verifyMediaSignature(params: {
  sha256: string;
  expires: string | null;
  sig: string | null;
  encryptionKey: string;
  now?: number;
}): boolean {
  if (!params.expires || !/^\d{1,12}$/.test(params.expires) || !params.sig) return false;
  const expires = Number(params.expires);
  if (expires * 1000 < (params.now ?? Date.now())) return false;
  const expected = Buffer.from(signature(params.encryptionKey, params.sha256, expires));
  const given = Buffer.from(params.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta's `X-Hub-Signature-256: sha256=<hex>`: the HMAC-SHA256 of the raw body under the app secret
 * (developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads), compared in constant time.
 */
export function hubSignatureValid(body: Uint8Array, header: string | null, secret: string): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')?.[1];
  if (!given || !secret) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'hex'));
}

/** Two secrets compared in constant time (their SHA-256, so lengths do not leak either). */
export function sameSecret(given: string, expected: string): boolean {
  const hash = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(hash(given), hash(expected));
}

export const hubSignature = (body: Uint8Array | string, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * The secret the sandbox signs a network's webhooks with: derived from APP_ENCRYPTION_KEY, so only this install's
 * sandbox can sign an event that matches its sandbox accounts (a real app secret never does).
 */
export function sandboxWebhookSecret(network: string, encryptionKey: string): string {
  return createHmac('sha256', encryptionKey).update(`sandbox-webhooks:${network}`).digest('hex');
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type HubAlgorithm = 'sha1' | 'sha256';
const HEX_LENGTH: Record<HubAlgorithm, number> = { sha1: 40, sha256: 64 };

/**
 * `X-Hub-Signature-256: sha256=<hex>` (Meta) or `X-Hub-Signature: sha1=<hex>` (a WebSub hub, §8): the HMAC of the raw
 * body under the secret (developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads), with one of
 * the digests the network may use, compared in constant time.
 */
export function hubSignatureValid(
  body: Uint8Array,
  header: string | null,
  secret: string,
  algorithms: readonly HubAlgorithm[] = ['sha256'],
): boolean {
  const match = /^(sha1|sha256)=([0-9a-f]+)$/i.exec(header?.trim() ?? '');
  const algorithm = match?.[1]?.toLowerCase() as HubAlgorithm | undefined;
  if (!match || !algorithm || !algorithms.includes(algorithm) || !secret) return false;
  if (match[2]!.length !== HEX_LENGTH[algorithm]) return false;
  const expected = createHmac(algorithm, secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!.toLowerCase(), 'hex'));
}

/** Two secrets compared in constant time (their SHA-256, so lengths do not leak either). */
export function sameSecret(given: string, expected: string): boolean {
  const hash = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(hash(given), hash(expected));
}

export const hubSignature = (body: Uint8Array | string, secret: string, algorithm: HubAlgorithm = 'sha256') =>
  `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;

/** The `hub.secret` this install gives a WebSub hub for a network's feeds: derived from APP_ENCRYPTION_KEY. */
export function websubSecret(network: string, encryptionKey: string): string {
  return createHmac('sha256', encryptionKey).update(`websub:${network}`).digest('hex');
}

/**
 * The secret the sandbox signs a network's webhooks with: derived from APP_ENCRYPTION_KEY, so only this install's
 * sandbox can sign an event that matches its sandbox accounts (a real app secret never does).
 */
export function sandboxWebhookSecret(network: string, encryptionKey: string): string {
  return createHmac('sha256', encryptionKey).update(`sandbox-webhooks:${network}`).digest('hex');
}

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

/** How far a TikTok-Signature's timestamp may be from our clock (a replayed capture is older than this). */
export const TIKTOK_SIGNATURE_TOLERANCE_S = 300;

/**
 * TikTok's `TikTok-Signature: t=<unix seconds>,s=<hex>`: the HMAC-SHA256 of `<t>.<raw body>` under the app's client
 * secret (developers.tiktok.com/doc/webhooks-verification), compared in constant time; a timestamp more than five
 * minutes from our clock is refused (a replay).
 */
export function tiktokSignatureValid(
  body: Uint8Array,
  header: string | null,
  secret: string,
  now = Date.now(),
): boolean {
  const parts = new Map(
    (header ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()] as const;
    }),
  );
  const t = parts.get('t') ?? '';
  const given = /^[0-9a-f]{64}$/i.exec(parts.get('s') ?? '')?.[0];
  if (!given || !secret || !/^\d{1,12}$/.test(t)) return false;
  if (Math.abs(now / 1000 - Number(t)) > TIKTOK_SIGNATURE_TOLERANCE_S) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'hex'));
}

/** The TikTok-Signature header for a body (the sandbox signs its webhooks so; tests too). */
export const tiktokSignature = (body: Uint8Array | string, secret: string, at = Date.now()) => {
  const t = Math.floor(at / 1000);
  return `t=${t},s=${createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')}`;
};

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

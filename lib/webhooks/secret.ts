import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';

/** Standard Webhooks secrets: `whsec_` + base64 of 24 to 64 random bytes. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Sealed to the endpoint's id (as account tokens are to theirs): a sealed value copied to another row does not open. */
export const sealWebhookSecret = (secret: string, key: string, endpointId: string) =>
  encryptSecret(secret, key, `webhook-endpoint:${endpointId}`);

export const openWebhookSecret = (sealed: string, key: string, endpointId: string) =>
  decryptSecret(sealed, key, `webhook-endpoint:${endpointId}`);

import { createHash, randomBytes, randomInt } from 'node:crypto';
import { SANDBOX_MASTODON_DOMAIN } from '@/sandbox/dialects/mastodon/json';
import type { Platform } from '@/sandbox/store/types';

/** Only the hash of a sandbox token is stored; a leaked sandbox table does not leak tokens. */
export function hashSandboxToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new platform identity and its bearer token: a numeric user id like X's and Mastodon's, or for Bluesky a
 * did:plc DID (24 base32 characters), whose token is the app password sessions are opened with.
 */
export function newSandboxIdentity(platform?: Platform): { platformUserId: string; token: string; suffix: string } {
  const token = `sbx_${randomBytes(24).toString('base64url')}`;
  if (platform === 'bluesky') {
    const did = didPlcFrom(randomBytes(24));
    return { platformUserId: did, token, suffix: did.slice(-4) };
  }
  if (platform === 'youtube') {
    // A YouTube channel id: `UC` and 22 URL-safe characters.
    const channelId = `UC${randomBytes(16).toString('base64url').slice(0, 22)}`;
    return {
      platformUserId: channelId,
      token,
      suffix: channelId
        .slice(-4)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, 'x'),
    };
  }
  const platformUserId = String(randomInt(100_000_000_000, 999_999_999_999)) + String(randomInt(100_000, 999_999)); // 18 digits
  return { platformUserId, token, suffix: platformUserId.slice(-4) };
}

/** A did:plc DID (24 base32 characters) from 24 bytes: random ones, or a digest for a deterministic identity. */
export function didPlcFrom(bytes: Uint8Array): string {
  return `did:plc:${Array.from(bytes.subarray(0, 24), (b) => 'abcdefghijklmnopqrstuvwxyz234567'[b & 31]).join('')}`;
}

/** A sandbox user's handle, shaped like the network's own. */
export function sandboxHandle(platform: Platform, suffix: string): string {
  switch (platform) {
    case 'x':
      return `@sandbox_${suffix}`;
    case 'mastodon':
      return `@sandbox_${suffix}@${SANDBOX_MASTODON_DOMAIN}`;
    case 'bluesky':
      return `@sandbox-${suffix}.bsky.sandbox`;
    case 'linkedin':
      return `Sandbox Company ${suffix}`;
    case 'threads':
    case 'instagram':
    case 'tiktok':
    case 'youtube':
      return `@sandbox_${suffix}`;
    case 'facebook':
      return `Sandbox Page ${suffix}`;
  }
}

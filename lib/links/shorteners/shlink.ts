import { sendOnce } from '@/lib/net/send';
import type { ExternalShortener } from './types';
import { answered } from './answer';

/**
 * Shlink's REST API v3: `POST /rest/v3/short-urls` with `X-Api-Key` and `{ longUrl, findIfExists: true }` answers the
 * short URL (`shortUrl`); findIfExists returns the existing one for the same long URL instead of making another.
 */
export const shlink: ExternalShortener = {
  name: 'shlink',
  label: 'Shlink',
  async shorten(destination, config) {
    if (!config.baseUrl) return { ok: false, reason: 'Shlink needs its server URL (Settings → Links)' };
    const raw = await sendOnce({
      method: 'POST',
      url: `${config.baseUrl.replace(/\/+$/, '')}/rest/v3/short-urls`,
      headers: { 'x-api-key': config.secret, accept: 'application/json' },
      json: { longUrl: destination, findIfExists: true },
      timeoutMs: config.timeoutMs ?? 5_000,
    });
    return answered(raw, 'Shlink', (body) => (typeof body?.shortUrl === 'string' ? body.shortUrl : null));
  },
};

import { sendOnce } from '@/lib/net/send';
import type { ExternalShortener } from './types';
import { answered } from './answer';

/**
 * Bitly's API v4: `POST /v4/shorten` with `{ long_url }` and a bearer token answers `{ link, id, long_url }` (201 for a
 * new bitlink, 200 for the one this group already has for the URL).
 */
export const bitly: ExternalShortener = {
  name: 'bitly',
  label: 'Bitly',
  async shorten(destination, config) {
    const base = (config.baseUrl ?? 'https://api-ssl.bitly.com').replace(/\/+$/, '');
    const raw = await sendOnce({
      method: 'POST',
      url: `${base}/v4/shorten`,
      headers: { authorization: `Bearer ${config.secret}` },
      json: { long_url: destination },
      timeoutMs: config.timeoutMs ?? 5_000,
    });
    return answered(raw, 'Bitly', (body) => (typeof body?.link === 'string' ? body.link : null));
  },
};

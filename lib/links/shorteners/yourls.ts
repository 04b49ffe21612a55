import { sendOnce } from '@/lib/net/send';
import type { ExternalShortener } from './types';
import { answered } from './answer';

/**
 * YOURLS' API: `POST /yourls-api.php` (form) with `action=shorturl`, `url`, `format=json` and the passwordless
 * `signature` token. A new URL answers `{ status: "success", shorturl }`; a URL it already has (unique URLs, its
 * default) `{ status: "fail", code: "error:url", shorturl }` naming the existing short URL — the same link.
 */
export const yourls: ExternalShortener = {
  name: 'yourls',
  label: 'YOURLS',
  async shorten(destination, config) {
    if (!config.baseUrl) return { ok: false, reason: 'YOURLS needs its server URL (Settings → Links)' };
    const raw = await sendOnce({
      method: 'POST',
      url: `${config.baseUrl.replace(/\/+$/, '')}/yourls-api.php`,
      form: { signature: config.secret, action: 'shorturl', url: destination, format: 'json' },
      timeoutMs: config.timeoutMs ?? 5_000,
    });
    // YOURLS answers an existing URL with 400 and the short URL it already has.
    if (raw.type === 'response' && raw.status === 400) {
      const body = raw.body as Record<string, unknown> | null;
      if (body?.code === 'error:url' && typeof body.shorturl === 'string') return { ok: true, shortUrl: body.shorturl };
    }
    return answered(raw, 'YOURLS', (body) => (typeof body?.shorturl === 'string' ? body.shorturl : null));
  },
};

import type { RawOutcome } from '@/lib/providers/types';
import type { ShortenResult } from './types';

/** A shortener's HTTP answer → its short URL (read by `pick` from a 2xx JSON body), or why there is none. */
export function answered(
  raw: RawOutcome,
  label: string,
  pick: (body: Record<string, unknown> | null) => string | null,
): ShortenResult {
  if (raw.type === 'error')
    return {
      ok: false,
      reason:
        raw.code === 'OUTBOUND_REFUSED'
          ? `${label}: ${raw.message}`
          : `${label} could not be reached${raw.timedOut ? ' (timed out)' : ''}`,
    };
  if (raw.type === 'body-error') return { ok: false, reason: `${label}'s answer was cut off` };
  if (raw.status < 200 || raw.status >= 300) return { ok: false, reason: `${label} answered HTTP ${raw.status}` };
  const body = raw.body && typeof raw.body === 'object' ? (raw.body as Record<string, unknown>) : null;
  const shortUrl = pick(body);
  if (!shortUrl || !/^https?:\/\//.test(shortUrl))
    return { ok: false, reason: `${label} answered without a short URL` };
  return { ok: true, shortUrl };
}

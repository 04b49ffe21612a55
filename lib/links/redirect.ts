import { isbot } from 'isbot';
import type { Executor } from '@/db/client';
import { getShortLinkByCode, recordShortLinkClick } from '@/db/queries/links';

const CODE = /^[A-Za-z0-9_-]{4,64}$/;

/**
 * `/l/<code>`: where the short link goes, counting the click of a person. Crawlers and link previews (X's, Slack's,
 * Mastodon's: isbot, by user agent) are sent on but not counted; a HEAD is not a click. Nothing about the visitor is
 * written: not its address, not its agent — one counter per link and day.
 */
export async function followShortLink(
  db: Executor,
  params: { code: string; userAgent: string | null; method: string },
): Promise<{ found: false } | { found: true; destination: string; counted: boolean }> {
  if (!CODE.test(params.code)) return { found: false };
  const link = await getShortLinkByCode(db, params.code);
  if (!link) return { found: false };
  // A request without a user agent is a script, not a person clicking.
  const counted = params.method === 'GET' && !!params.userAgent && !isbot(params.userAgent);
  if (counted) await recordShortLinkClick(db, link.id);
  return { found: true, destination: link.destination, counted };
}

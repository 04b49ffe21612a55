import type { ShortenerName } from '@/db/schema';

/** How an external shortener answered: its short link, or why there is none (the post is refused, never half-tracked). */
export type ShortenResult = { ok: true; shortUrl: string } | { ok: false; reason: string };

/** What an external shortener needs: its base URL (Shlink, YOURLS; Bitly's API by default) and its secret. */
export type ShortenerConfig = { baseUrl: string | null; secret: string; timeoutMs?: number };

/**
 * One external link shortener (Bitly, Shlink, YOURLS) behind the same interface as Semel's own redirect: it is called
 * only for a (workspace, target URL, UTM) that has no short link yet, through the outbound guard (lib/net), once.
 * Each keeps the same long URL on one short link on its side too (Bitly per group, Shlink's findIfExists, YOURLS'
 * unique URLs), so a call repeated after a crash makes no second link there either.
 */
export type ExternalShortener = {
  name: Exclude<ShortenerName, 'semel'>;
  label: string;
  shorten(destination: string, config: ShortenerConfig): Promise<ShortenResult>;
};

import { randomInt } from 'node:crypto';
import type { Executor } from '@/db/client';
import { findShortLink, insertShortLink, type ShortLinkKey } from '@/db/queries/links';
import type { ShortenerName, ShortLink } from '@/db/schema';
import { getEnv, type Env } from '@/lib/env';
import { EXTERNAL_SHORTENERS } from './shorteners';
import type { ShortenerConfig } from './shorteners/types';
import { withUtm } from './urls';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CODE_LENGTH = 7; // 62^7 ≈ 3.5e12 codes: a taken one is drawn again, never reused

/** A random code for `/l/<code>` (unguessable enough that links cannot be enumerated one by one). */
export function newShortCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/**
 * Where Semel's short links point: SHORT_LINK_DOMAIN, else NEXTAUTH_URL's origin, else (outside production) this
 * machine. Null in production without either: no short link is ever written with a local address.
 */
export function shortLinkOriginOf(env: Pick<Env, 'SHORT_LINK_DOMAIN' | 'NEXTAUTH_URL' | 'NODE_ENV' | 'PORT'>) {
  if (env.SHORT_LINK_DOMAIN) return env.SHORT_LINK_DOMAIN;
  if (env.NEXTAUTH_URL) return new URL(env.NEXTAUTH_URL).origin;
  return env.NODE_ENV === 'production' ? null : `http://localhost:${env.PORT}`;
}

export const shortLinkOrigin = () => shortLinkOriginOf(getEnv());

/** Why Semel cannot make a short link in production without its address. */
export const NO_SHORT_LINK_ORIGIN =
  'Semel’s short links need the app’s public address: set SHORT_LINK_DOMAIN or NEXTAUTH_URL';

export type ShortenWith =
  { shortener: 'semel' } | { shortener: Exclude<ShortenerName, 'semel'>; config: ShortenerConfig };

export type ShortLinkResult = { ok: true; link: ShortLink; created: boolean } | { ok: false; reason: string };

/**
 * The short link of (workspace, target URL, UTM), made once: an existing row is returned as it is (whichever shortener
 * made it); else Semel's redirect gets a new code, or the external shortener is asked (through the outbound guard) and
 * its answer kept. Two callers racing end on one row: `short_links_workspace_target_utm_uq` lets one insert win and the
 * other reads it.
 */
export async function getOrCreateShortLink(
  db: Executor,
  params: {
    workspaceId: string;
    targetUrl: string;
    /** `source` is the network the link is for (its clicks are that network's), tagged or not. */
    utm: { source: string; medium: string; campaign: string };
    /** False: the link leads to the target URL as it is (UTM off), still one per network (medium and campaign ''). */
    tagged?: boolean;
  },
  using: ShortenWith = { shortener: 'semel' },
): Promise<ShortLinkResult> {
  const tagged = params.tagged ?? true;
  const key: ShortLinkKey = {
    workspaceId: params.workspaceId,
    targetUrl: params.targetUrl,
    utmSource: params.utm.source,
    utmMedium: tagged ? params.utm.medium : '',
    utmCampaign: tagged ? params.utm.campaign : '',
  };
  const existing = await findShortLink(db, key);
  if (existing) return { ok: true, link: existing, created: false };
  const origin = shortLinkOrigin();
  if (using.shortener === 'semel' && !origin) return { ok: false, reason: NO_SHORT_LINK_ORIGIN };
  const destination = tagged ? withUtm(params.targetUrl, params.utm) : params.targetUrl;
  let shortUrl: string | null = null;
  if (using.shortener !== 'semel') {
    const answer = await EXTERNAL_SHORTENERS[using.shortener].shorten(destination, using.config);
    if (!answer.ok) return answer;
    shortUrl = answer.shortUrl;
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newShortCode();
    const saved = await insertShortLink(db, {
      ...key,
      code,
      destination,
      shortener: using.shortener,
      shortUrl: shortUrl ?? `${origin}/l/${code}`,
    });
    if (saved) return { ok: true, ...saved };
  }
  throw new Error('no free short-link code after 5 draws');
}

import type { Executor } from '@/db/client';
import { getLinkSettings, getUtmPresets, listUtmPresets, replacePostLinkTexts } from '@/db/queries/links';
import type { PostLinkOptions, ProviderName } from '@/db/schema';
import { getEnv } from '@/lib/env';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { FieldErrors } from '@/lib/posts/targets';
import { openShortenerSecret } from './settings';
import { getOrCreateShortLink, shortLinkOrigin, type ShortenWith } from './short-link';
import { findUrls, replaceUrls, withUtm } from './urls';

/** What a post's links become on each network: the URL with its UTM tags, or its short link (and that link's id). */
export type LinkTracking = { byProvider: Map<ProviderName, Map<string, { text: string; shortLinkId?: string }>> };

/**
 * Prepares a post's tracked links before its transaction (docs/content.md#short-links-and-utm): for each network the
 * post goes to and each link in its texts, the UTM-tagged URL (utm_source = the network, medium and campaign from the
 * post's preset or the workspace's default one, the post's own campaign first) or its short link — made once per
 * (workspace, target URL, UTM), Semel's or an external shortener's (a call through the outbound guard). Short links are
 * committed on their own: one the post never uses is harmless, and the next post reuses it. Null: nothing to track
 * (the workspace tracks nothing, the post opts out, or it has no links).
 */
export async function prepareLinkTracking(
  db: Executor,
  params: {
    workspaceId: string;
    /** The networks the post goes to: read only when there is something to track. */
    providers: () => Promise<ProviderName[]>;
    texts: string[];
    options?: PostLinkOptions | null;
  },
): Promise<{ ok: true; tracking: LinkTracking | null } | { ok: false; errors: FieldErrors; transient?: true }> {
  // A preset the post names is the workspace's, whether or not anything is tracked now (it is kept with the post).
  const named = params.options?.presetId
    ? await getUtmPresets(db, { workspaceId: params.workspaceId, ids: [params.options.presetId] })
    : null;
  if (named?.length === 0) return { ok: false, errors: { 'links.presetId': ['No such UTM preset in this workspace'] } };
  if (params.options?.track === false) return { ok: true, tracking: null };
  // Most posts have no link: then nothing is read at all.
  const origin = shortLinkOrigin();
  const urls = [...new Set(params.texts.flatMap(findUrls))].filter((u) => !origin || !u.startsWith(`${origin}/l/`));
  if (urls.length === 0) return { ok: true, tracking: null };
  const settings = await getLinkSettings(db, params);
  if (!settings || (!settings.utm && !settings.shorten)) return { ok: true, tracking: null };

  const presets = named ?? (await listUtmPresets(db, params)).filter((p) => p.isDefault);
  // Never '' when tagged: an untagged link is keyed by its network with medium '' (short_links_workspace_target_utm_uq).
  const medium = presets[0]?.medium || 'social';
  const campaign = params.options?.campaign ?? presets[0]?.campaign ?? '';
  let using: ShortenWith = { shortener: 'semel' };
  if (settings.shorten && settings.shortener !== 'semel') {
    // Opened only for the shortener and URL it was sealed for: never sent to another server.
    const secret = openShortenerSecret(settings, getEnv().APP_ENCRYPTION_KEY);
    if (secret === null)
      return {
        ok: false,
        errors: { text: ['Links could not be shortened: give the shortener’s secret again in Settings → Links'] },
      };
    using = { shortener: settings.shortener, config: { baseUrl: settings.shortenerUrl, secret } };
  }

  const byProvider: LinkTracking['byProvider'] = new Map();
  for (const provider of new Set(await params.providers())) {
    const links = new Map<string, { text: string; shortLinkId?: string }>();
    const utm = { source: provider, medium, campaign };
    for (const url of urls) {
      if (!settings.shorten) {
        links.set(url, { text: withUtm(url, utm) });
        continue;
      }
      // One short link per network even without UTM tags: its clicks are that network's.
      const made = await getOrCreateShortLink(
        db,
        { workspaceId: params.workspaceId, targetUrl: url, utm, tagged: settings.utm },
        using,
      );
      // The shortener did not answer or refused: a passing reason, the same post may be tried again later.
      if (!made.ok)
        return { ok: false, errors: { text: [`Links could not be shortened: ${made.reason}`] }, transient: true };
      links.set(url, { text: made.link.shortUrl, shortLinkId: made.link.id });
    }
    byProvider.set(provider, links);
  }
  return { ok: true, tracking: { byProvider } };
}

export type DeliveryText = { accountId: string; provider: ProviderName; handle: string; part: number; text: string };

/** A post's texts with their tracked links (post_link_texts rows) and the short links they use. */
export type TrackedTexts = { texts: { accountId: string; part: number; text: string }[]; shortLinkIds: string[] };

/**
 * Each delivery's text with its links tracked for its network, checked against that network's limit as published (a
 * long UTM-tagged link on Bluesky: an error on `text`). Only the texts that have a tracked link are returned.
 */
export function trackTexts(tracking: LinkTracking, deliveries: DeliveryText[], errors: FieldErrors): TrackedTexts {
  const texts: TrackedTexts['texts'] = [];
  const shortLinkIds: string[] = [];
  for (const d of deliveries) {
    const links = tracking.byProvider.get(d.provider);
    if (!links) continue;
    const found = findUrls(d.text).filter((u) => links.has(u));
    if (found.length === 0) continue;
    const tracked = replaceUrls(d.text, new Map(found.map((u) => [u, links.get(u)!.text])));
    for (const u of found) if (links.get(u)!.shortLinkId) shortLinkIds.push(links.get(u)!.shortLinkId!);
    const { countText, textLimit, replies } = PROVIDER_META[d.provider];
    const limit = d.part > 0 && replies ? replies.textLimit : textLimit;
    if (countText(tracked) > limit)
      (errors.text ??= []).push(
        `${countText(tracked)}/${limit} characters with its tracked links: too long for ${d.handle}`,
      );
    texts.push({ accountId: d.accountId, part: d.part, text: tracked });
  }
  return { texts, shortLinkIds };
}

/**
 * A post's tracked texts, written in its transaction (post_link_texts, read first by deliveryTextSql) with the short
 * links they use; each checked against its network's limit as published (trackTexts). Without tracking, the post's
 * rows are removed (an edit that dropped its links).
 */
export async function writeTrackedTexts(
  db: Executor,
  params: {
    postId: string;
    tracking: LinkTracking | null;
    deliveries: DeliveryText[];
    /** A post made just now: without tracking there is nothing of its own to remove (no statement at all). */
    fresh?: boolean;
  },
  errors: FieldErrors,
) {
  if (!params.tracking && params.fresh) return;
  const tracked = params.tracking
    ? trackTexts(params.tracking, params.deliveries, errors)
    : { texts: [], shortLinkIds: [] };
  await replacePostLinkTexts(db, { postId: params.postId, ...tracked });
}

import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import {
  linkSettings,
  postLinkTexts,
  postShortLinks,
  shortLinks,
  utmPresets,
  type ShortenerName,
  type ShortLink,
} from '../schema';

/** A short link's identity: the guard `short_links_workspace_target_utm_uq` holds one row per key. */
export type ShortLinkKey = {
  workspaceId: string;
  targetUrl: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
};

export async function findShortLink(db: Executor, key: ShortLinkKey): Promise<ShortLink | null> {
  const [row] = await db
    .select()
    .from(shortLinks)
    .where(
      and(
        eq(shortLinks.workspaceId, key.workspaceId),
        eq(shortLinks.targetUrl, key.targetUrl),
        eq(shortLinks.utmSource, key.utmSource),
        eq(shortLinks.utmMedium, key.utmMedium),
        eq(shortLinks.utmCampaign, key.utmCampaign),
      ),
    );
  return row ?? null;
}

/**
 * The short link of this key: inserted, or the row that already holds the key (another save, or one racing this
 * one: ON CONFLICT waits for it and takes nothing). Null only when `code` was taken by another link: the caller
 * draws a new code and asks again.
 */
export async function insertShortLink(
  db: Executor,
  params: ShortLinkKey & { code: string; destination: string; shortener: ShortenerName; shortUrl: string },
): Promise<{ link: ShortLink; created: boolean } | null> {
  const [inserted] = await db.insert(shortLinks).values(params).onConflictDoNothing().returning();
  if (inserted) return { link: inserted, created: true };
  const existing = await findShortLink(db, params);
  return existing ? { link: existing, created: false } : null;
}

/** The redirect's read: one index probe of short_links_code_uq. */
export async function getShortLinkByCode(db: Executor, code: string) {
  const [row] = await db
    .select({ id: shortLinks.id, destination: shortLinks.destination, shortener: shortLinks.shortener })
    .from(shortLinks)
    .where(eq(shortLinks.code, code));
  return row ?? null;
}

/** One click, counted atomically (one upsert of today's counter): nothing about the visitor is written. */
export async function recordShortLinkClick(db: Executor, shortLinkId: string) {
  await db.execute(sql`
    insert into short_link_clicks (short_link_id, day, clicks) values (${shortLinkId}, (now() at time zone 'utc')::date, 1)
    on conflict (short_link_id, day) do update set clicks = short_link_clicks.clicks + 1`);
}

const clicksColumn = sql<number>`coalesce((select sum(c.clicks)::int from short_link_clicks c
  where c.short_link_id = ${shortLinks.id}), 0)`;

const linkColumns = {
  id: shortLinks.id,
  code: shortLinks.code,
  shortUrl: shortLinks.shortUrl,
  targetUrl: shortLinks.targetUrl,
  destination: shortLinks.destination,
  network: shortLinks.utmSource,
  utmMedium: shortLinks.utmMedium,
  utmCampaign: shortLinks.utmCampaign,
  shortener: shortLinks.shortener,
  createdAt: shortLinks.createdAt,
  clicks: clicksColumn,
};

/** The workspace's short links, newest first, each with its clicks (its network is its utm_source). */
export async function listShortLinks(db: Executor, params: { workspaceId: string; limit?: number }) {
  return db
    .select(linkColumns)
    .from(shortLinks)
    .where(eq(shortLinks.workspaceId, params.workspaceId))
    .orderBy(desc(shortLinks.createdAt), desc(shortLinks.id))
    .limit(params.limit ?? 100);
}

/** The short links a post's texts use, with their clicks (the post page). */
export async function listPostShortLinks(db: Executor, params: { workspaceId: string; postId: string }) {
  return db
    .select(linkColumns)
    .from(postShortLinks)
    .innerJoin(shortLinks, eq(shortLinks.id, postShortLinks.shortLinkId))
    .where(and(eq(postShortLinks.postId, params.postId), eq(shortLinks.workspaceId, params.workspaceId)))
    .orderBy(asc(shortLinks.utmSource), asc(shortLinks.targetUrl));
}

/**
 * A post's tracked texts (one per account and part whose links changed) and the short links they use, replacing
 * the ones it had: in the post's own transaction, so the publisher sees the post and its texts together.
 */
export async function replacePostLinkTexts(
  db: Executor,
  params: {
    postId: string;
    texts: { accountId: string; part: number; text: string }[];
    shortLinkIds: string[];
  },
) {
  await db.delete(postLinkTexts).where(eq(postLinkTexts.postId, params.postId));
  await db.delete(postShortLinks).where(eq(postShortLinks.postId, params.postId));
  if (params.texts.length > 0)
    await db.insert(postLinkTexts).values(params.texts.map((t) => ({ ...t, postId: params.postId })));
  const ids = [...new Set(params.shortLinkIds)];
  if (ids.length > 0)
    await db.insert(postShortLinks).values(ids.map((shortLinkId) => ({ postId: params.postId, shortLinkId })));
}

/** New posts' tracked texts and short links (an import's, just inserted: nothing of theirs to replace), in batches. */
export async function insertNewPostsLinkTexts(
  db: Executor,
  posts: { postId: string; texts: { accountId: string; part: number; text: string }[]; shortLinkIds: string[] }[],
) {
  const texts = posts.flatMap((p) => p.texts.map((t) => ({ ...t, postId: p.postId })));
  const links = posts.flatMap((p) =>
    [...new Set(p.shortLinkIds)].map((shortLinkId) => ({ postId: p.postId, shortLinkId })),
  );
  for (let at = 0; at < texts.length; at += 500) await db.insert(postLinkTexts).values(texts.slice(at, at + 500));
  for (let at = 0; at < links.length; at += 500) await db.insert(postShortLinks).values(links.slice(at, at + 500));
}

export async function getLinkSettings(db: Executor, params: { workspaceId: string }) {
  const [row] = await db.select().from(linkSettings).where(eq(linkSettings.workspaceId, params.workspaceId));
  return row ?? null;
}

/** The workspace's link settings, locked until the caller's transaction ends (a save that reads them first). */
export async function lockLinkSettings(tx: Executor, params: { workspaceId: string }) {
  const [row] = await tx
    .select()
    .from(linkSettings)
    .where(eq(linkSettings.workspaceId, params.workspaceId))
    .for('update');
  return row ?? null;
}

export async function saveLinkSettings(
  db: Executor,
  params: {
    workspaceId: string;
    utm: boolean;
    shorten: boolean;
    shortener: ShortenerName;
    shortenerUrl: string | null;
    /** undefined: keep the stored secret; null: remove it. */
    shortenerSecretSealed?: string | null;
  },
) {
  const { workspaceId, ...values } = params;
  await db
    .insert(linkSettings)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: linkSettings.workspaceId, set: { ...values, updatedAt: new Date() } });
}

export async function listUtmPresets(db: Executor, params: { workspaceId: string }) {
  return db
    .select()
    .from(utmPresets)
    .where(eq(utmPresets.workspaceId, params.workspaceId))
    .orderBy(desc(utmPresets.isDefault), asc(utmPresets.name));
}

export async function getUtmPresets(db: Executor, params: { workspaceId: string; ids: string[] }) {
  if (params.ids.length === 0) return [];
  return db
    .select()
    .from(utmPresets)
    .where(and(eq(utmPresets.workspaceId, params.workspaceId), inArray(utmPresets.id, params.ids)));
}

/**
 * Adds a preset in the caller's transaction (a name already used is refused: `utm_presets_workspace_name_uq`, answered
 * as null). As the default, the old default is unset first (`utm_presets_one_default_uq` keeps one).
 */
export async function createUtmPreset(
  db: Executor,
  params: { workspaceId: string; name: string; medium: string; campaign: string; isDefault: boolean },
) {
  if (params.isDefault)
    await db
      .update(utmPresets)
      .set({ isDefault: false })
      .where(and(eq(utmPresets.workspaceId, params.workspaceId), eq(utmPresets.isDefault, true)));
  const [row] = await db.insert(utmPresets).values(params).onConflictDoNothing().returning({ id: utmPresets.id });
  return row?.id ?? null;
}

export async function deleteUtmPreset(db: Executor, params: { workspaceId: string; id: string }) {
  await db.delete(utmPresets).where(and(eq(utmPresets.workspaceId, params.workspaceId), eq(utmPresets.id, params.id)));
}

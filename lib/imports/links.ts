import type { Executor } from '@/db/client';
import { prepareLinkTracking, trackTexts, type DeliveryText, type TrackedTexts } from '@/lib/links/track';
import type { FieldErrors, TargetAccount } from '@/lib/posts/targets';
import type { PlannedPost } from './plan';

/** What link tracking made of an import's posts: each tracked post's texts (by post key), each refused row's reasons. */
export type ImportLinks = { tracked: Map<string, TrackedTexts>; errors: Map<number, string[]> };

/**
 * The link tracking of an import's posts, as the composer and the API apply it (docs/content.md#short-links-and-utm):
 * per post, its links tagged or shortened for each network it goes to (`prepareLinkTracking`: short links are made
 * once per workspace, target URL and UTM, so an import run twice reuses them), then each delivery's text checked as
 * published. Run before the posts' transaction (an external shortener is another server). A post whose links cannot
 * be tracked (the shortener refused, a tracked text too long for a network) is its rows' error and is not imported.
 * A file without links reads nothing.
 */
export async function trackImportLinks(
  db: Executor,
  params: { workspaceId: string; posts: readonly PlannedPost[]; accounts: readonly TargetAccount[] },
): Promise<ImportLinks> {
  const links: ImportLinks = { tracked: new Map(), errors: new Map() };
  const byId = new Map(params.accounts.map((a) => [a.id, a]));
  for (const post of params.posts) {
    const texts = [...post.texts, ...(post.firstComment !== undefined ? [post.firstComment] : [])];
    const accounts = post.accountIds.map((id) => byId.get(id)!);
    const prepared = await prepareLinkTracking(db, {
      workspaceId: params.workspaceId,
      providers: async () => accounts.map((a) => a.provider),
      texts,
      options: post.links,
    });
    const errors: FieldErrors = prepared.ok ? {} : prepared.errors;
    if (prepared.ok && prepared.tracking) {
      const tracked = trackTexts(prepared.tracking, deliveryTexts(post, accounts), errors);
      if (tracked.texts.length > 0) links.tracked.set(post.postKey, tracked);
    }
    const messages = Object.entries(errors).flatMap(([field, list]) =>
      list.map((m) => `${field === 'links.presetId' ? 'utm_preset' : 'links'}: ${m}`),
    );
    if (messages.length > 0) for (const row of post.rows) links.errors.set(row, messages);
  }
  return links;
}

/** Each delivery's text as the post's insert makes them: a thread's parts, or the post and its first comment. */
function deliveryTexts(post: PlannedPost, accounts: TargetAccount[]): DeliveryText[] {
  return accounts.flatMap((a) => {
    const of = (part: number, text: string) => ({
      accountId: a.id,
      provider: a.provider,
      handle: a.handle,
      part,
      text,
    });
    if (post.kind === 'thread') return post.texts.map((text, part) => of(part, text));
    const comment = post.firstComment !== undefined && post.firstCommentAccounts?.has(a.id.toLowerCase());
    return [of(0, post.texts[0]!), ...(comment ? [of(1, post.firstComment!)] : [])];
  });
}

/** The plan without the posts whose links were refused, those rows' errors added to its own. */
export function withoutRefusedLinks<T extends { posts: PlannedPost[]; errors: Map<number, string[]> }>(
  plan: T,
  links: ImportLinks,
): T {
  if (links.errors.size === 0) return plan;
  for (const [row, messages] of links.errors) plan.errors.set(row, [...(plan.errors.get(row) ?? []), ...messages]);
  return { ...plan, posts: plan.posts.filter((p) => !p.rows.some((r) => links.errors.has(r))) };
}

import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { deliveries, postVariants } from '../schema';

/**
 * The text a delivery publishes: its tracked text (post_link_texts: its links with UTM tags or shortened, written when
 * the post was saved), else its thread part's (post_parts at deliveries.part) for a thread; else for part 0 its
 * account's variant, else the post's text; for part 1 of a post (its first comment) the account's own first comment,
 * else the post's (a thread has no variants: the post use cases refuse them). For raw SQL over the aliases `d`
 * (deliveries) and `p` (posts): the publisher, the reconciler, the review queue and the chaos verdict all read it here.
 */
export const deliveryTextSql = sql`coalesce(
  (select t.text from post_link_texts t where t.post_id = d.post_id and t.account_id = d.account_id and t.part = d.part),
  (select pp.text from post_parts pp where pp.post_id = d.post_id and pp.position = d.part),
  (select case when d.part = 0 then v.text else v.first_comment end from post_variants v
    where v.post_id = d.post_id and v.account_id = d.account_id),
  case when d.part = 0 then p.text else p.first_comment end)`;

/** The delivery's own variant text (null: it uses the post's text), for the query builder's delivery reads. */
export const variantTextColumn = sql<string | null>`(select v.text from post_variants v
  where v.post_id = ${deliveries.postId} and v.account_id = ${deliveries.accountId})`;

/** The delivery's account's own first comment (null: the post's, if any). */
export const variantFirstCommentColumn = sql<string | null>`(select v.first_comment from post_variants v
  where v.post_id = ${deliveries.postId} and v.account_id = ${deliveries.accountId})`;

export type VariantRow = { accountId: string; text?: string | null; firstComment?: string | null };

/** Sets a post's variants to exactly `variants` (an edit replaces them all), in the caller's transaction. */
export async function replacePostVariants(
  db: Executor,
  params: { workspaceId: string; postId: string; variants: VariantRow[] },
) {
  await db
    .delete(postVariants)
    .where(and(eq(postVariants.postId, params.postId), eq(postVariants.workspaceId, params.workspaceId)));
  const rows = params.variants.filter((v) => v.text != null || v.firstComment != null);
  if (rows.length === 0) return;
  await db.insert(postVariants).values(
    rows.map((v) => ({
      accountId: v.accountId,
      text: v.text ?? null,
      firstComment: v.firstComment ?? null,
      workspaceId: params.workspaceId,
      postId: params.postId,
    })),
  );
}

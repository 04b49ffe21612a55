import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { deliveries, postVariants } from '../schema';

/**
 * The text a delivery publishes: its thread part's (post_parts at deliveries.part) for a thread, else its account's
 * variant, else the post's text (a thread has no variants: the post use cases refuse them). For raw SQL over the
 * aliases `d` (deliveries) and `p` (posts): the publisher, the reconciler, the review queue and the chaos verdict
 * all read it from here.
 */
export const deliveryTextSql = sql`coalesce(
  (select pp.text from post_parts pp where pp.post_id = d.post_id and pp.position = d.part),
  (select v.text from post_variants v where v.post_id = d.post_id and v.account_id = d.account_id),
  p.text)`;

/** The delivery's own variant text (null: it uses the post's text), for the query builder's delivery reads. */
export const variantTextColumn = sql<string | null>`(select v.text from post_variants v
  where v.post_id = ${deliveries.postId} and v.account_id = ${deliveries.accountId})`;

/** Sets a post's variants to exactly `variants` (an edit replaces them all), in the caller's transaction. */
export async function replacePostVariants(
  db: Executor,
  params: { workspaceId: string; postId: string; variants: { accountId: string; text: string }[] },
) {
  await db
    .delete(postVariants)
    .where(and(eq(postVariants.postId, params.postId), eq(postVariants.workspaceId, params.workspaceId)));
  if (params.variants.length === 0) return;
  await db
    .insert(postVariants)
    .values(params.variants.map((v) => ({ ...v, workspaceId: params.workspaceId, postId: params.postId })));
}

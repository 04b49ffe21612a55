import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { jsonb } from './sql-params';

/**
 * Which of these platform ids are already another delivery's post on the same account (so a post with
 * the same text published on purpose by another delivery is not counted as a copy of this one).
 */
export async function getIdsOwnedByOtherDeliveries(
  db: Executor,
  params: { accountId: string; deliveryId: string; externalIds: string[] },
) {
  if (params.externalIds.length === 0) return new Set<string>();
  const result = await db.execute(sql`
    select external_id as id from deliveries
    where account_id = ${params.accountId} and id <> ${params.deliveryId}
      and external_id in (select jsonb_array_elements_text(${jsonb(params.externalIds)}))`);
  return new Set([...result].map((r) => (r as { id: string }).id));
}

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { deliveries, deliveryEvents, type DeliveryStatus } from '../../schema';

/**
 * Locks the post's deliveries (FOR UPDATE) for an edit, with whether each is claimed. The publisher
 * claims with SKIP LOCKED, so while an edit holds these rows it cannot claim them, and an edit that
 * waits for a claim sees the delivery as publishing afterwards.
 */
export async function lockDeliveriesForEdit(db: Executor, params: { workspaceId: string; postId: string }) {
  const result = await db.execute<{
    id: string;
    status: DeliveryStatus;
    accountId: string;
    part: number;
    claimed: boolean;
    mayBeLive: boolean;
  }>(sql`
    select d.id, d.status, d.account_id as "accountId", d.part,
      exists (select 1 from claims c where c.delivery_id = d.id and c.released_at is null) as claimed,
      exists (select 1 from attempts a where a.delivery_id = d.id and a.outcome = 'ambiguous') as "mayBeLive"
    from deliveries d
    where d.post_id = ${params.postId} and d.workspace_id = ${params.workspaceId}
    order by d.id
    for update of d`);
  return [...result];
}

/**
 * Removes the deliveries of thread parts an edit dropped (a shorter thread). Only rows that never had a claim
 * nor an attempt: such a part was never sent anywhere, so nothing on a platform is left without its record.
 * The caller holds their locks (lockDeliveriesForEdit). Returns the removed ids.
 */
export async function removeDroppedParts(db: Executor, params: { workspaceId: string; postId: string; ids: string[] }) {
  if (params.ids.length === 0) return [];
  const result = await db.execute<{ id: string }>(sql`
    delete from deliveries d
    where d.post_id = ${params.postId} and d.workspace_id = ${params.workspaceId} and d.part > 0
      and d.id = any(${sql.param(params.ids)}::uuid[]) and d.status in ('scheduled', 'draft', 'awaiting_approval', 'canceled')
      and not exists (select 1 from claims c where c.delivery_id = d.id)
      and not exists (select 1 from attempts a where a.delivery_id = d.id)
    returning d.id`);
  return [...result].map((r) => r.id);
}

/**
 * Re-times the still-scheduled deliveries (or drafts: `status`) and removes (cancels) targets dropped by an
 * edit, with history rows.
 */
export async function applyEditToDeliveries(
  db: Executor,
  params: {
    workspaceId: string;
    postId: string;
    dueAt: Date;
    keep: string[];
    remove: string[];
    actor: string;
    status?: 'scheduled' | 'draft' | 'awaiting_approval';
  },
) {
  const from = params.status ?? 'scheduled';
  if (params.keep.length) {
    await db
      .update(deliveries)
      .set({ dueAt: params.dueAt, updatedAt: new Date() })
      .where(and(eq(deliveries.workspaceId, params.workspaceId), inArray(deliveries.id, params.keep)));
    await db.insert(deliveryEvents).values(
      params.keep.map((id) => ({
        workspaceId: params.workspaceId,
        deliveryId: id,
        fromStatus: from,
        toStatus: from,
        actor: params.actor,
        reason: 'edited',
      })),
    );
  }
  if (params.remove.length) {
    await db
      .update(deliveries)
      .set({ status: 'canceled', settledAt: new Date(), updatedAt: new Date() })
      .where(and(eq(deliveries.workspaceId, params.workspaceId), inArray(deliveries.id, params.remove)));
    await db.insert(deliveryEvents).values(
      params.remove.map((id) => ({
        workspaceId: params.workspaceId,
        deliveryId: id,
        fromStatus: from,
        toStatus: 'canceled' as const,
        actor: params.actor,
        reason: 'account removed by an edit',
      })),
    );
  }
}

/** Replaces the options of a post's deliveries to these accounts (an edit, while none is claimed). */
export async function replaceDeliveryOptions(
  db: Executor,
  params: { workspaceId: string; postId: string; options: ReadonlyMap<string, Record<string, unknown> | null> },
) {
  for (const [accountId, options] of params.options)
    await db
      .update(deliveries)
      .set({ options, updatedAt: new Date() })
      .where(
        and(
          eq(deliveries.workspaceId, params.workspaceId),
          eq(deliveries.postId, params.postId),
          eq(deliveries.accountId, accountId),
        ),
      );
}

import type { Executor } from '../../client';
import { deliveries, deliveryEvents } from '../../schema';
import { schedulingStatus } from './approval-rule';

/** New deliveries (one per account, or for a thread one per account and part) and their first history row. */
export async function addDeliveries(
  db: Executor,
  params: {
    workspaceId: string;
    postId: string;
    accountIds: string[];
    /** The thread parts to add, by position (default: part 0 only, as for every post that is not a thread). */
    parts?: number[];
    /** Parts for some accounts instead of `parts` (a post's first comment: [0, 1]), keyed by lower-case account id. */
    partsByAccount?: ReadonlyMap<string, number[]>;
    dueAt: Date;
    /**
     * `draft`: saved without scheduling, never claimed until scheduled. Default: the workspace's approval rule
     * (`scheduled`, or `awaiting_approval` while posts need approval).
     */
    status?: 'scheduled' | 'draft' | 'awaiting_approval';
    actor: string;
    reason: string;
    detail?: Record<string, unknown>;
    /** Each account's chosen format (deliveries.format), where one was chosen. */
    formats?: ReadonlyMap<string, string>;
    /** Each account's options (deliveries.options), where its network asks for some. */
    options?: ReadonlyMap<string, Record<string, unknown>>;
  },
) {
  const parts = params.parts ?? [0];
  const partsOf = (accountId: string) => params.partsByAccount?.get(accountId.toLowerCase()) ?? parts;
  if (params.accountIds.every((id) => partsOf(id).length === 0)) return [];
  const status = params.status ?? (await schedulingStatus(db, params));
  const rows = await db
    .insert(deliveries)
    .values(
      params.accountIds.flatMap((accountId) =>
        partsOf(accountId).map((part) => ({
          workspaceId: params.workspaceId,
          postId: params.postId,
          accountId,
          part,
          dueAt: params.dueAt,
          status,
          format: params.formats?.get(accountId.toLowerCase()) ?? null,
          options: params.options?.get(accountId.toLowerCase()) ?? null,
        })),
      ),
    )
    .returning();
  await db.insert(deliveryEvents).values(
    rows.map((r) => ({
      workspaceId: params.workspaceId,
      deliveryId: r.id,
      fromStatus: null,
      toStatus: status,
      actor: params.actor,
      reason: params.reason,
      detail: params.detail ?? null,
    })),
  );
  return rows;
}

/** Rows per insert statement: under Postgres' 65,535 parameters at 6 columns a row. */
const BATCH_ROWS = 5000;

/**
 * addDeliveries for many new posts at once (a CSV import: lib/imports/): the same rows — one per account and
 * part, `scheduled` or `awaiting_approval` by the workspace's approval rule, each with its `created` history row —
 * in a few statements instead of two per post. Returns the status they took.
 */
export async function addDeliveriesForPosts(
  db: Executor,
  params: {
    workspaceId: string;
    posts: {
      postId: string;
      accountIds: string[];
      parts: number[];
      /** Parts for some accounts instead of `parts` (a first comment: [0, 1]), keyed by lower-case account id. */
      partsByAccount?: ReadonlyMap<string, number[]>;
      dueAt: Date;
      detail: Record<string, unknown>;
    }[];
    actor: string;
    reason: string;
  },
) {
  const status = await schedulingStatus(db, params);
  const values = params.posts.flatMap((p) =>
    p.accountIds.flatMap((accountId) =>
      (p.partsByAccount?.get(accountId.toLowerCase()) ?? p.parts).map((part) => ({
        workspaceId: params.workspaceId,
        postId: p.postId,
        accountId,
        part,
        dueAt: p.dueAt,
        status,
      })),
    ),
  );
  const detailOf = new Map(params.posts.map((p) => [p.postId, p.detail]));
  for (let at = 0; at < values.length; at += BATCH_ROWS) {
    const rows = await db
      .insert(deliveries)
      .values(values.slice(at, at + BATCH_ROWS))
      .returning({ id: deliveries.id, postId: deliveries.postId });
    await db.insert(deliveryEvents).values(
      rows.map((r) => ({
        workspaceId: params.workspaceId,
        deliveryId: r.id,
        fromStatus: null,
        toStatus: status,
        actor: params.actor,
        reason: params.reason,
        detail: detailOf.get(r.postId) ?? null,
      })),
    );
  }
  return status;
}

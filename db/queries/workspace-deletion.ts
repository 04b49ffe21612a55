import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { rows } from './deliveries/rows';

// Deleting a workspace (Settings → Delete workspace): marked deleted at once (hidden from every member, its
// scheduled posts canceled, its API keys revoked) in the admin's transaction; the purge-workspaces job then
// removes its rows in the background.

/** Marks the workspace deleted when `confirmName` is its name; locks the row so two deletes are one. */
export async function markWorkspaceDeleted(db: Executor, params: { workspaceId: string; confirmName: string }) {
  const [row] = rows<{ id: string; name: string; slug: string }>(
    await db.execute(sql`
      update workspaces set deleted_at = now()
      where id = ${params.workspaceId} and deleted_at is null and name = ${params.confirmName}
      returning id, name, slug`),
  );
  return row ?? null;
}

/**
 * Cancels every delivery of the workspace that is still scheduled (unclaimed), a draft or awaiting approval, with
 * its history row, in one statement (the rows are locked; the publisher claims with SKIP LOCKED). A thread is
 * canceled per account only while its first part is still unclaimed, as in cancelScheduledDeliveries.
 */
export async function cancelWorkspaceDeliveries(db: Executor, params: { workspaceId: string; actor: string }) {
  const canceled = rows<{ delivery_id: string }>(
    await db.execute(sql`
      with heads as (
        select d.post_id, d.account_id from deliveries d
        where d.workspace_id = ${params.workspaceId} and d.part = 0
          and d.status in ('scheduled', 'draft', 'awaiting_approval')
          and not exists (select 1 from claims c where c.delivery_id = d.id and c.released_at is null)
        for update of d
      ), target as (
        select d.id, d.status from deliveries d
        join heads h on h.post_id = d.post_id and h.account_id = d.account_id
        where d.workspace_id = ${params.workspaceId} and d.status in ('scheduled', 'draft', 'awaiting_approval')
          and not exists (select 1 from claims c where c.delivery_id = d.id and c.released_at is null)
        for update of d
      ), canceled as (
        update deliveries d set status = 'canceled', settled_at = now(), updated_at = now()
        from target where d.id = target.id
        returning d.id, d.workspace_id, d.post_id, d.account_id, target.status as from_status
      ), released as (
        delete from slot_reservations r using canceled c where r.post_id = c.post_id and r.account_id = c.account_id
      )
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
      select workspace_id, id, from_status, 'canceled', ${params.actor}, 'workspace deleted' from canceled
      returning delivery_id`),
  );
  return canceled.length;
}

/** A deleted workspace's API keys stop working at once, not when the purge runs. */
export async function revokeWorkspaceApiKeys(db: Executor, params: { workspaceId: string }) {
  await db.execute(sql`
    update api_keys set revoked_at = now() where workspace_id = ${params.workspaceId} and revoked_at is null`);
}

/** Deleted workspaces ready to purge: none of their deliveries is being published right now. */
export async function listWorkspacesToPurge(db: Executor, params: { limit: number }) {
  return rows<{ id: string }>(
    await db.execute(sql`
      select w.id from workspaces w
      where w.deleted_at is not null
        and not exists (select 1 from deliveries d where d.workspace_id = w.id and d.status = 'publishing')
      order by w.deleted_at
      limit ${params.limit}`),
  ).map((r) => r.id);
}

/**
 * Removes one deleted workspace and everything it owns. Posts go first: a delivery's account is `restrict`, so
 * the accounts could not be removed by the workspace's cascade while deliveries still name them.
 */
export async function purgeWorkspace(db: Executor, params: { workspaceId: string }) {
  await db.execute(sql`delete from posts where workspace_id = ${params.workspaceId}
    and exists (select 1 from workspaces where id = ${params.workspaceId} and deleted_at is not null)`);
  const gone = rows<{ id: string }>(
    await db.execute(sql`
      delete from workspaces where id = ${params.workspaceId} and deleted_at is not null returning id`),
  );
  return gone.length === 1;
}

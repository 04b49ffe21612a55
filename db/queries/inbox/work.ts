import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { rows } from '../deliveries/rows';
import { interval, jsonb } from '../sql-params';

// What the team does with an item besides answering it: assign it, mark it done, note on it, show they are replying.
// Each is one statement scoped by the item's workspace.

/** The workspace of an item among the given ones (null: not one of them): what a member's action is checked against. */
export async function getInboxItemWorkspace(
  db: Executor,
  params: { itemId: string; workspaceIds: string[] },
): Promise<string | null> {
  const [row] = rows<{ workspaceId: string }>(
    await db.execute(sql`
      select workspace_id as "workspaceId" from inbox_items
      where id = ${params.itemId}
        and workspace_id in (select jsonb_array_elements_text(${jsonb(params.workspaceIds)})::uuid)`),
  );
  return row?.workspaceId ?? null;
}

/**
 * Assigns the item to a member of its workspace (or to nobody): false when the item or the member is not the
 * workspace's (nothing changes then).
 */
export async function assignInboxItem(
  db: Executor,
  params: { workspaceId: string; itemId: string; userId: string | null },
): Promise<boolean> {
  const result = await db.execute(sql`
    update inbox_items i set assigned_to_user_id = ${params.userId},
      assigned_at = ${params.userId === null ? null : sql`now()`}
    where i.id = ${params.itemId} and i.workspace_id = ${params.workspaceId}
      and (${params.userId}::uuid is null or exists (
        select 1 from memberships m where m.workspace_id = i.workspace_id and m.user_id = ${params.userId}::uuid))
    returning i.id`);
  return [...result].length > 0;
}

/** Marks the item done (or open again); repeating it changes nothing. */
export async function markInboxItemDone(
  db: Executor,
  params: { workspaceId: string; itemId: string; userId: string; done: boolean },
): Promise<boolean> {
  const result = await db.execute(sql`
    update inbox_items set
      done_at = ${params.done ? sql`coalesce(done_at, now())` : null},
      done_by_user_id = ${params.done ? sql`coalesce(done_by_user_id, ${params.userId}::uuid)` : null}
    where id = ${params.itemId} and workspace_id = ${params.workspaceId}
    returning id`);
  return [...result].length > 0;
}

/** An internal note, once per client key (`inbox_notes_item_key_uq`): a resubmitted note adds nothing. */
export async function addInboxNote(
  db: Executor,
  params: { workspaceId: string; itemId: string; userId: string; clientKey: string; text: string },
): Promise<'added' | 'repeated' | 'not_found'> {
  const [row] = rows<{ added: boolean; found: boolean }>(
    await db.execute(sql`
      with item as (select id from inbox_items where id = ${params.itemId} and workspace_id = ${params.workspaceId}),
      added as (
        insert into inbox_notes (workspace_id, item_id, user_id, client_key, text)
        select ${params.workspaceId}, item.id, ${params.userId}, ${params.clientKey}, ${params.text} from item
        on conflict (item_id, client_key) do nothing
        returning id
      )
      select exists (select 1 from added) as added, exists (select 1 from item) as found`),
  );
  return row?.added ? 'added' : row?.found ? 'repeated' : 'not_found';
}

/** "I am replying to it": the member's heartbeat, alive for `ttlMs` (one row per member and item). */
export async function heartbeatInboxPresence(
  db: Executor,
  params: { workspaceId: string; itemId: string; userId: string; ttlMs: number },
): Promise<boolean> {
  const result = await db.execute(sql`
    insert into inbox_presence (item_id, user_id, workspace_id, expires_at)
    select id, ${params.userId}, workspace_id, now() + ${interval(params.ttlMs)} from inbox_items
    where id = ${params.itemId} and workspace_id = ${params.workspaceId}
    on conflict (item_id, user_id) do update set expires_at = excluded.expires_at,
      started_at = case when inbox_presence.expires_at > now() then inbox_presence.started_at else now() end
    returning item_id`);
  return [...result].length > 0;
}

/** The member stopped replying (sent, or left the item). */
export async function endInboxPresence(db: Executor, params: { itemId: string; userId: string }) {
  await db.execute(sql`delete from inbox_presence where item_id = ${params.itemId} and user_id = ${params.userId}`);
}

/** Heartbeats long expired go (the inbox job, in batches). */
export async function pruneInboxPresence(db: Executor, params: { olderThanMs: number }) {
  const result = await db.execute(sql`
    delete from inbox_presence where ctid in (
      select ctid from inbox_presence where expires_at < now() - ${interval(params.olderThanMs)} limit 1000)
    returning item_id`);
  return [...result].length;
}

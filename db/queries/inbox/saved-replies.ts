import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { rows } from '../deliveries/rows';
import { jsonb } from '../sql-params';

// A workspace's saved replies (Settings → Saved replies): a name and a text with variables ({first_name}…).

export type SavedReplyRow = { id: string; workspaceId: string; name: string; text: string };

/** The saved replies of the given workspaces, by name. */
export async function listSavedReplies(db: Executor, params: { workspaceIds: string[] }): Promise<SavedReplyRow[]> {
  if (params.workspaceIds.length === 0) return [];
  return rows<SavedReplyRow>(
    await db.execute(sql`
      select id, workspace_id as "workspaceId", name, text from saved_replies
      where workspace_id in (select jsonb_array_elements_text(${jsonb(params.workspaceIds)})::uuid)
      order by lower(name), id`),
  );
}

/** Adds one, or changes the text of the one with that name (`saved_replies_workspace_name_uq`): never two. */
export async function upsertSavedReply(
  db: Executor,
  params: { workspaceId: string; name: string; text: string; userId: string },
): Promise<SavedReplyRow> {
  const [row] = rows<SavedReplyRow>(
    await db.execute(sql`
      insert into saved_replies (workspace_id, name, text, created_by_user_id)
      values (${params.workspaceId}, ${params.name}, ${params.text}, ${params.userId})
      on conflict (workspace_id, name) do update set text = excluded.text
      returning id, workspace_id as "workspaceId", name, text`),
  );
  return row!;
}

export async function deleteSavedReply(db: Executor, params: { workspaceId: string; id: string }): Promise<boolean> {
  const result = await db.execute(
    sql`delete from saved_replies where id = ${params.id} and workspace_id = ${params.workspaceId} returning id`,
  );
  return [...result].length > 0;
}

import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../client';
import { postTemplates, snippets, type PostTemplate, type Snippet } from '../schema';

/** A workspace's snippets and post templates (the composer's library): every query scoped by workspace. */

export async function listSnippets(db: Executor, params: { workspaceId: string }): Promise<Snippet[]> {
  return db
    .select()
    .from(snippets)
    .where(eq(snippets.workspaceId, params.workspaceId))
    .orderBy(asc(snippets.kind), asc(snippets.name));
}

/** A new snippet, or null when its name is taken in the workspace (`snippets_workspace_name_uq`). */
export async function createSnippet(
  db: Executor,
  params: { workspaceId: string; name: string; kind: Snippet['kind']; text: string },
): Promise<Snippet | null> {
  const [row] = await db.insert(snippets).values(params).onConflictDoNothing().returning();
  return row ?? null;
}

export async function deleteSnippet(db: Executor, params: { workspaceId: string; id: string }) {
  const rows = await db
    .delete(snippets)
    .where(and(eq(snippets.workspaceId, params.workspaceId), eq(snippets.id, params.id)))
    .returning({ id: snippets.id });
  return rows.length > 0;
}

export async function listTemplates(db: Executor, params: { workspaceId: string }): Promise<PostTemplate[]> {
  return db
    .select()
    .from(postTemplates)
    .where(eq(postTemplates.workspaceId, params.workspaceId))
    .orderBy(asc(postTemplates.name));
}

export async function getTemplate(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = await db
    .select()
    .from(postTemplates)
    .where(and(eq(postTemplates.workspaceId, params.workspaceId), eq(postTemplates.id, params.id)));
  return row ?? null;
}

/** A new template, or null when its name is taken in the workspace (`post_templates_workspace_name_uq`). */
export async function createTemplate(
  db: Executor,
  params: Omit<PostTemplate, 'id' | 'createdAt'>,
): Promise<PostTemplate | null> {
  const [row] = await db.insert(postTemplates).values(params).onConflictDoNothing().returning();
  return row ?? null;
}

export async function deleteTemplate(db: Executor, params: { workspaceId: string; id: string }) {
  const rows = await db
    .delete(postTemplates)
    .where(and(eq(postTemplates.workspaceId, params.workspaceId), eq(postTemplates.id, params.id)))
    .returning({ id: postTemplates.id });
  return rows.length > 0;
}

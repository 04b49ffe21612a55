import type { Executor } from '@/db/client';
import { createSnippet, createTemplate, updateTemplate } from '@/db/queries/library';
import { getWorkspaceMedia } from '@/db/queries/media';
import { getTargetAccounts } from '@/db/queries/posts';
import type { PostTemplate, Snippet } from '@/db/schema';
import type { FieldErrors } from '@/lib/posts/targets';
import type { TemplateInput, TemplatePatch } from './schemas';

export type LibraryResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** A snippet, unique by name in the workspace (a taken name is a field error, nothing stored). */
export async function addSnippet(
  db: Executor,
  workspaceId: string,
  input: { name: string; kind: Snippet['kind']; text: string },
): Promise<LibraryResult<Snippet>> {
  const row = await createSnippet(db, { workspaceId, ...input });
  return row ? { ok: true, value: row } : { ok: false, errors: { name: ['A snippet with this name exists'] } };
}

/** Whether a template's accounts and images are this workspace's (another's are reported as missing: I6). */
async function checkReferences(
  db: Executor,
  workspaceId: string,
  refs: { accountIds?: string[]; mediaIds?: string[] },
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (refs.accountIds) {
    const accountIds = [...new Set(refs.accountIds)];
    const accounts = await getTargetAccounts(db, { workspaceId, accountIds });
    if (accounts.length !== accountIds.length)
      errors.accountIds = ['One or more accounts do not exist in this workspace'];
  }
  if (refs.mediaIds) {
    const media = await getWorkspaceMedia(db, { workspaceId, ids: refs.mediaIds });
    if (media.length !== new Set(refs.mediaIds).size)
      errors.mediaIds = ['One or more images do not exist in this workspace'];
  }
  return errors;
}

/** A template whose accounts and images are this workspace's, unique by name (a taken name is a field error). */
export async function addTemplate(
  db: Executor,
  workspaceId: string,
  input: TemplateInput,
): Promise<LibraryResult<PostTemplate>> {
  const errors = await checkReferences(db, workspaceId, input);
  if (Object.keys(errors).length) return { ok: false, errors };
  const accountIds = [...new Set(input.accountIds)];
  const row = await createTemplate(db, {
    workspaceId,
    name: input.name,
    text: input.text,
    firstComment: input.firstComment ?? null,
    accountIds,
    timeOfDay: input.timeOfDay ?? null,
    mediaIds: input.mediaIds,
  });
  return row ? { ok: true, value: row } : { ok: false, errors: { name: ['A template with this name exists'] } };
}

/**
 * A template's fields changed (those given; `null` removes a first comment or a time): its accounts and images must
 * be this workspace's, its new name unused by another. Null: the workspace has no such template.
 */
export async function editTemplate(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: TemplatePatch,
): Promise<LibraryResult<PostTemplate> | null> {
  const errors = await checkReferences(db, workspaceId, patch);
  if (Object.keys(errors).length) return { ok: false, errors };
  const row = await updateTemplate(db, {
    workspaceId,
    id,
    changes: {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.text !== undefined ? { text: patch.text } : {}),
      ...(patch.firstComment !== undefined ? { firstComment: patch.firstComment } : {}),
      ...(patch.accountIds !== undefined ? { accountIds: [...new Set(patch.accountIds)] } : {}),
      ...(patch.timeOfDay !== undefined ? { timeOfDay: patch.timeOfDay } : {}),
      ...(patch.mediaIds !== undefined ? { mediaIds: patch.mediaIds } : {}),
    },
  });
  if (row === 'name_taken') return { ok: false, errors: { name: ['A template with this name exists'] } };
  return row && { ok: true, value: row };
}

export const serializeSnippet = (s: Snippet) => ({
  id: s.id,
  name: s.name,
  kind: s.kind,
  text: s.text,
  createdAt: s.createdAt.toISOString(),
});

export const serializeTemplate = (t: PostTemplate) => ({
  id: t.id,
  name: t.name,
  text: t.text,
  firstComment: t.firstComment,
  accountIds: t.accountIds,
  timeOfDay: t.timeOfDay,
  mediaIds: t.mediaIds,
  createdAt: t.createdAt.toISOString(),
});

import type { Executor } from '@/db/client';
import { createSnippet, createTemplate } from '@/db/queries/library';
import { getWorkspaceMedia } from '@/db/queries/media';
import { getTargetAccounts } from '@/db/queries/posts';
import type { PostTemplate, Snippet } from '@/db/schema';
import type { FieldErrors } from '@/lib/posts/targets';
import type { TemplateInput } from './schemas';

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

/** A template whose accounts and images are this workspace's (another's are reported as missing: I6). */
export async function addTemplate(
  db: Executor,
  workspaceId: string,
  input: TemplateInput,
): Promise<LibraryResult<PostTemplate>> {
  const errors: FieldErrors = {};
  const accountIds = [...new Set(input.accountIds)];
  const accounts = await getTargetAccounts(db, { workspaceId, accountIds });
  if (accounts.length !== accountIds.length)
    errors.accountIds = ['One or more accounts do not exist in this workspace'];
  const media = await getWorkspaceMedia(db, { workspaceId, ids: input.mediaIds });
  if (media.length !== new Set(input.mediaIds).size)
    errors.mediaIds = ['One or more images do not exist in this workspace'];
  if (Object.keys(errors).length) return { ok: false, errors };
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

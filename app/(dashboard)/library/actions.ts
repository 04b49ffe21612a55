'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { deleteSnippet, deleteTemplate } from '@/db/queries/library';
import { invalidFields, workspaceAction } from '@/lib/auth/action';
import { addSnippet, addTemplate, editTemplate } from '@/lib/templates/library';
import { snippetInput, templateInput } from '@/lib/templates/schemas';

const PATH = '/library';

export const createSnippetAction = workspaceAction(
  { name: 'createSnippet', can: 'compose', schema: snippetInput },
  async (input, { workspace }) => {
    const result = await addSnippet(getDb(), workspace.id, input);
    if (!result.ok) return invalidFields(result.errors);
    revalidatePath(PATH);
    return { ok: true, message: `Snippet “${input.name}” added: type /${input.name} in the composer.` };
  },
);

export const deleteSnippetAction = workspaceAction(
  { name: 'deleteSnippet', can: 'compose', schema: z.object({ id: z.uuid() }) },
  async ({ id }, { workspace }) => {
    await deleteSnippet(getDb(), { workspaceId: workspace.id, id });
    revalidatePath(PATH);
    return { ok: true, message: 'Snippet deleted.' };
  },
);

/** The form's fields: accounts and images as repeated fields, a blank time or comment as none. */
const templateFields = (v: unknown) => {
  const input = v as Record<string, unknown>;
  const list = (value: unknown) => (value === undefined ? [] : [value].flat());
  return {
    name: input.name,
    text: input.text,
    ...(input.firstComment ? { firstComment: input.firstComment } : {}),
    accountIds: list(input.accountIds),
    ...(input.timeOfDay ? { timeOfDay: input.timeOfDay } : {}),
    mediaIds: list(input.mediaIds),
  };
};
const templateForm = z.preprocess(templateFields, templateInput);
/** The edit form sends every field: what it leaves blank (a first comment, a time) is removed. */
const templateEditForm = z.preprocess(
  (v) => ({ ...templateFields(v), id: (v as Record<string, unknown>).id }),
  templateInput.extend({ id: z.uuid() }),
);

export const createTemplateAction = workspaceAction(
  { name: 'createTemplate', can: 'compose', schema: templateForm },
  async (input, { workspace }) => {
    const result = await addTemplate(getDb(), workspace.id, input);
    if (!result.ok) return invalidFields(result.errors);
    revalidatePath(PATH);
    return { ok: true, message: `Template “${input.name}” added: pick it in the composer.` };
  },
);

export const updateTemplateAction = workspaceAction(
  { name: 'updateTemplate', can: 'compose', schema: templateEditForm },
  async ({ id, ...input }, { workspace }) => {
    const result = await editTemplate(getDb(), workspace.id, id, {
      ...input,
      firstComment: input.firstComment ?? null,
      timeOfDay: input.timeOfDay ?? null,
    });
    if (!result) return { ok: false, message: 'This template no longer exists: it was deleted.' };
    if (!result.ok) return invalidFields(result.errors);
    revalidatePath(PATH);
    return { ok: true, message: `Template “${input.name}” saved.` };
  },
);

export const deleteTemplateAction = workspaceAction(
  { name: 'deleteTemplate', can: 'compose', schema: z.object({ id: z.uuid() }) },
  async ({ id }, { workspace }) => {
    await deleteTemplate(getDb(), { workspaceId: workspace.id, id });
    revalidatePath(PATH);
    return { ok: true, message: 'Template deleted.' };
  },
);

'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { deleteSnippet, deleteTemplate } from '@/db/queries/library';
import { invalidFields, workspaceAction } from '@/lib/auth/action';
import { addSnippet, addTemplate } from '@/lib/templates/library';
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

/** The form's fields: accounts as a checkbox group, a blank time or comment as none. */
const templateForm = z.preprocess((v) => {
  const input = v as Record<string, unknown>;
  return {
    name: input.name,
    text: input.text,
    ...(input.firstComment ? { firstComment: input.firstComment } : {}),
    accountIds: input.accountIds === undefined ? [] : [input.accountIds].flat(),
    ...(input.timeOfDay ? { timeOfDay: input.timeOfDay } : {}),
  };
}, templateInput);

export const createTemplateAction = workspaceAction(
  { name: 'createTemplate', can: 'compose', schema: templateForm },
  async (input, { workspace }) => {
    const result = await addTemplate(getDb(), workspace.id, input);
    if (!result.ok) return invalidFields(result.errors);
    revalidatePath(PATH);
    return { ok: true, message: `Template “${input.name}” added: pick it in the composer.` };
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

'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { createUtmPreset, deleteUtmPreset } from '@/db/queries/links';
import { SHORTENERS } from '@/db/schema';
import { invalidFields, workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { baseUrlRefusal } from '@/lib/net/outbound-guard';
import { saveLinkTrackingSettings } from '@/lib/links/settings';

const PATH = '/settings/links';
const checkbox = z
  .string()
  .optional()
  .transform((v) => v === 'on');

const settingsSchema = z
  .object({
    utm: checkbox,
    shorten: checkbox,
    shortener: z.enum(SHORTENERS),
    shortenerUrl: z
      .string()
      .trim()
      .max(500)
      .optional()
      .transform((v) => v || null),
    /** Blank keeps the stored secret (it is never shown again) while the shortener and its URL stay the same. */
    shortenerSecret: z.string().trim().max(500).optional(),
  })
  .superRefine((v, ctx) => {
    const problem = v.shortenerUrl ? baseUrlRefusal(v.shortenerUrl) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['shortenerUrl'], message: `The URL ${problem}` });
    if ((v.shortener === 'shlink' || v.shortener === 'yourls') && !v.shortenerUrl)
      ctx.addIssue({ code: 'custom', path: ['shortenerUrl'], message: 'Give the shortener’s URL' });
  });

/** Settings → Links: UTM tags, shortening and the shortener (its secret sealed for that shortener and URL). */
export const saveLinkSettingsAction = workspaceAction(
  { name: 'saveLinkSettings', can: 'manageWorkspace', schema: settingsSchema },
  async (input, { workspace }) => {
    const saved = await saveLinkTrackingSettings(
      getDb(),
      { ...input, workspaceId: workspace.id },
      getEnv().APP_ENCRYPTION_KEY,
    );
    if (!saved.ok) return invalidFields(saved.errors);
    revalidatePath(PATH);
    return { ok: true, message: 'Link settings saved. New and edited posts use them.' };
  },
);

const text = (max: number) => z.string().trim().min(1, 'Required').max(max);

export const createUtmPresetAction = workspaceAction(
  {
    name: 'createUtmPreset',
    can: 'manageWorkspace',
    schema: z.object({
      name: text(60),
      medium: text(60),
      campaign: z.string().trim().max(100).default(''),
      isDefault: checkbox,
    }),
  },
  async (input, { workspace }) => {
    const id = await getDb().transaction((tx) => createUtmPreset(tx, { ...input, workspaceId: workspace.id }));
    if (!id) return invalidFields({ name: ['A preset with this name exists'] });
    revalidatePath(PATH);
    return { ok: true, message: `Preset “${input.name}” added.` };
  },
);

export const deleteUtmPresetAction = workspaceAction(
  { name: 'deleteUtmPreset', can: 'manageWorkspace', schema: z.object({ id: z.uuid() }) },
  async ({ id }, { workspace }) => {
    await deleteUtmPreset(getDb(), { workspaceId: workspace.id, id });
    revalidatePath(PATH);
    return { ok: true, message: 'Preset deleted.' };
  },
);

'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { setWorkspaceCookie } from '@/lib/auth/workspace-cookie';
import { createWorkspaceFor } from '@/lib/teams/workspaces';
import { canonicalTimeZone } from '@/lib/time/zoned';

const workspaceSchema = z.object({
  name: z.string().trim().min(2, 'At least 2 characters').max(80, 'At most 80 characters'),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .min(2, 'At least 2 characters')
    .max(48, 'At most 48 characters')
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Lower-case letters, digits and single hyphens, e.g. acme-bakery'),
  timeZone: z
    .string()
    .trim()
    .max(64, 'At most 64 characters')
    .transform((v, ctx) => {
      const zone = canonicalTimeZone(v);
      if (!zone) ctx.addIssue({ code: 'custom', message: 'Choose an IANA time zone, e.g. Europe/Berlin' });
      return zone ?? z.NEVER;
    }),
});

/** An admin creates a workspace for a client and becomes its admin; it becomes the active one. */
export const createWorkspaceAction = workspaceAction(
  { name: 'createWorkspace', can: 'manageWorkspace', schema: workspaceSchema },
  async (input, { user }) => {
    const created = await createWorkspaceFor(getDb(), { actorUserId: user.id, ...input });
    if (!created.ok)
      return {
        ok: false,
        status: 409,
        errors: { slug: ['This slug is taken: choose another.'] },
        message: 'Please fix the highlighted fields.',
      };
    await setWorkspaceCookie(created.slug);
    revalidatePath('/', 'layout');
    redirect('/settings');
  },
);

'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { createRequestLink, revokeRequestLinkAudited } from '@/lib/requests/links';

/** A client request link for this workspace (admins only); its URL is shown once, to copy. */
export const createRequestLinkAction = workspaceAction(
  {
    name: 'createRequestLink',
    can: 'manageWorkspace',
    schema: z.object({
      label: z.string().trim().min(1, 'Name the link (e.g. the client’s name)').max(100, 'At most 100 characters'),
      // Optional: blank means the link works until revoked.
      expiresInDays: z
        .union([
          z.literal(''),
          z.coerce.number().int('Whole days').min(1, 'At least 1 day').max(365, 'At most 365 days'),
        ])
        .optional()
        .transform((v) => (v === '' || v === undefined ? undefined : v)),
    }),
  },
  async ({ label, expiresInDays }, { workspace, user }) => {
    const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null;
    const link = await createRequestLink(getDb(), { workspaceId: workspace.id, userId: user.id, label, expiresAt });
    revalidatePath('/settings');
    // The browser adds its own origin (the one the admin reached the app at).
    return {
      ok: true,
      message: 'Request link created: send it to your client. It is shown only now.',
      data: { path: `/request/${link.token}` },
    };
  },
);

export const revokeRequestLinkAction = workspaceAction(
  { name: 'revokeRequestLink', can: 'manageWorkspace', schema: z.object({ linkId: z.uuid() }) },
  async ({ linkId }, { workspace, user }) => {
    const found = await revokeRequestLinkAudited(getDb(), { workspaceId: workspace.id, userId: user.id, id: linkId });
    revalidatePath('/settings');
    return found ? { ok: true, message: 'Link revoked.' } : { ok: false, status: 404, message: 'No such link.' };
  },
);

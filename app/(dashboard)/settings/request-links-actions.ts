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
    }),
  },
  async ({ label }, { workspace, user }) => {
    const link = await createRequestLink(getDb(), { workspaceId: workspace.id, userId: user.id, label });
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

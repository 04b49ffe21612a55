'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { createApiKey, revokeApiKey } from '@/db/queries/api-keys';
import { workspaceAction } from '@/lib/auth/action';
import { scopesSchema } from '@/lib/api/scopes';
import { generateApiKey } from '@/lib/auth/api-key-token';

/** The key is returned once, to the admin who created it; only its hash is stored. */
export const createApiKeyAction = workspaceAction(
  {
    name: 'createApiKey',
    can: 'manageApiKeys',
    // An unchecked checkbox group sends nothing at all: that reads as "no scope", not as the default.
    schema: z.object({
      name: z.string().trim().min(1, 'Give the key a name').max(80),
      scopes: z.preprocess((v) => v ?? [], scopesSchema),
    }),
  },
  async ({ name, scopes }, { workspace, user }) => {
    const key = generateApiKey();
    await createApiKey(getDb(), {
      workspaceId: workspace.id,
      name,
      prefix: key.prefix,
      hash: key.hash,
      scopes,
      createdByUserId: user.id,
    });
    revalidatePath('/settings/api');
    return { ok: true, message: 'Key created. Copy it now: it will not be shown again.', data: { token: key.token } };
  },
);

export const revokeApiKeyAction = workspaceAction(
  { name: 'revokeApiKey', can: 'manageApiKeys', schema: z.object({ apiKeyId: z.uuid() }) },
  async ({ apiKeyId }, { workspace }) => {
    const revoked = await revokeApiKey(getDb(), { workspaceId: workspace.id, apiKeyId });
    revalidatePath('/settings/api');
    return { ok: true, message: revoked ? 'Key revoked.' : 'That key was already revoked.' };
  },
);

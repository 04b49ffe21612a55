import { getDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { appRead } from '@/lib/http/app-read';
import { readPostOptionsInfo } from '@/lib/reads/post-options';

export const dynamic = 'force-dynamic';

// What the account allows as a post's options now (TikTok's creator_info): composing needs it, so `compose`.
export const GET = appRead<{ id: string }>('compose', ({ workspace }, { id }) =>
  readPostOptionsInfo(getDb(), {
    workspaceId: workspace.id,
    accountId: id,
    encryptionKey: getEnv().APP_ENCRYPTION_KEY,
  }),
);

import { getDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { appRead } from '@/lib/http/app-read';
import { readSandboxTimeline } from '@/lib/reads/sandbox-timeline';

export const dynamic = 'force-dynamic';

export const GET = appRead('read', ({ workspace }) => {
  const env = getEnv();
  return readSandboxTimeline(getDb(), {
    workspaceId: workspace.id,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    sandboxEnabled: env.sandboxEnabled,
  });
});

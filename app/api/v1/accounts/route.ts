import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { apiHandler, json } from '@/lib/api/handler';

export const dynamic = 'force-dynamic';

export const GET = apiHandler('accounts:read', async (_request, principal) => {
  const accounts = await listAccounts(getDb(), { workspaceId: principal.workspaceId });
  return json({
    data: accounts.map((a) => ({
      id: a.id,
      provider: a.provider,
      sandbox: a.sandbox,
      handle: a.handle,
      displayName: a.displayName,
    })),
  });
});

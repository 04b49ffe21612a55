import { z } from 'zod';
import { getDb } from '@/db/client';
import { disconnectAccount } from '@/db/queries/deliveries';
import { apiHandler, json } from '@/lib/api/handler';
import { logger } from '@/lib/logging/logger';
import { accountNotFound } from '../http';

export const dynamic = 'force-dynamic';

// A malformed id names no account: a 404 instead of reaching a uuid column (a 500).
const accountId = z.uuid();

/**
 * Disconnect an account: the Accounts page's disconnect (token wiped, scheduled deliveries held in review). A
 * second call, another workspace's id or a malformed one is a 404: only a connected account can be disconnected.
 */
export const DELETE = apiHandler<{ id: string }>('accounts:write', async (_request, principal, { id }) => {
  if (!accountId.safeParse(id).success) return accountNotFound();
  const row = await disconnectAccount(getDb(), {
    workspaceId: principal.workspaceId,
    accountId: id,
    actor: `api_key:${principal.apiKeyId}`,
  });
  if (!row) return accountNotFound();
  logger.info(
    { workspaceId: principal.workspaceId, apiKeyId: principal.apiKeyId, accountId: id, held: row.held },
    'account disconnected through the API',
  );
  return json({ id: row.id, status: 'disconnected', heldDeliveries: row.held });
});

import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { connectAccountFromApi } from '@/lib/accounts/connect-account';
import { connectAccountRequestSchema } from '@/lib/accounts/connect-request';
import { serializeAccount } from '@/lib/accounts/serialize';
import { apiHandler, json, readKeyedRequest } from '@/lib/api/handler';
import { getEnv } from '@/lib/env';
import { requestIdOf } from '@/lib/http/request-id';
import { connectAccountResponse } from './http';

export const dynamic = 'force-dynamic';

export const GET = apiHandler('accounts:read', async (_request, principal) => {
  const accounts = await listAccounts(getDb(), { workspaceId: principal.workspaceId });
  return json({ data: accounts.map(serializeAccount) });
});

/**
 * Connect an account with pasted credentials, as the Accounts page does, exactly once per Idempotency-Key
 * (docs/architecture.md#inbound-idempotency): key check → body validation (not stored) → the use case.
 */
export const POST = apiHandler('accounts:write', async (request, principal) => {
  const input = await readKeyedRequest(request, connectAccountRequestSchema);
  if (!input.ok) return input.response;
  const result = await connectAccountFromApi(getDb(), input.data, {
    workspaceId: principal.workspaceId,
    idempotencyKey: input.key,
    actor: `api_key:${principal.apiKeyId}`,
    encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    requestId: requestIdOf(request.headers),
  });
  return connectAccountResponse(result);
});

import {
  defineRoute,
  idempotencyKeyHeader,
  jsonResponse,
  problemResponse,
  replayedHeader,
  retryAfterHeader,
} from '@/lib/api/contract/define';
import { accountListSchema, accountSchema } from '@/lib/api/contract/schemas';
import { named, z } from '@/lib/api/contract/zod';
import { connectAccountRequestSchema } from '@/lib/accounts/connect-request';

/** /api/v1/accounts — the contract of ./route.ts. */
export const accountsContract = defineRoute('/accounts', {
  GET: {
    operationId: 'listAccounts',
    summary: 'Social accounts of the workspace (connected ones), with their ids',
    scope: 'accounts:read',
    responses: { 200: jsonResponse('Accounts', accountListSchema) },
  },
  POST: {
    operationId: 'connectAccount',
    summary: 'Connect a Mastodon, Bluesky or X account (idempotent)',
    description:
      "The Accounts page's connect, with its fields and checks: Mastodon `instanceUrl` + `accessToken`; Bluesky `serviceUrl` (the PDS URL) + `identifier` (handle or email) + `appPassword`; X `accessToken` (an OAuth 2.0 user token; `baseUrl` defaults to https://api.x.com, and `platformUserId`, when given, must be the token's user). " +
      'The URL goes through the outbound guard (no private or internal addresses unless the server allows them), the platform is asked who the credentials belong to, and only then are they stored, sealed; they are never returned. ' +
      'Exactly once per Idempotency-Key; the same platform account in one workspace is always one account (connecting it again reconnects it, with the same id).',
    scope: 'accounts:write',
    request: {
      headers: idempotencyKeyHeader,
      body: {
        required: true,
        content: { 'application/json': { schema: named('ConnectAccount', connectAccountRequestSchema) } },
      },
    },
    responses: {
      201: jsonResponse(
        'Connected (or reconnected), or the replay of the first answer for this key',
        accountSchema,
        replayedHeader.extend({
          Location: z.string().openapi({ description: 'The account, e.g. `/api/v1/accounts/{id}`.' }),
        }),
      ),
      400: problemResponse('Missing or malformed Idempotency-Key, or a body that is not JSON (nothing stored)'),
      409: problemResponse(
        'The first request with this key is still running (retry after `Retry-After` seconds)',
        undefined,
        retryAfterHeader,
      ),
      422: problemResponse(
        'Invalid fields (`errors` per field), the connection check failed (the outbound guard refused the address, the platform refused the credentials or did not answer as the network does), or the key was already used with a different request; nothing stored',
      ),
    },
  },
});

import { getDb } from '@/db/client';
import { getApiKeyName } from '@/db/queries/api-keys';
import { apiHandler, readKeyedRequest } from '@/lib/api/handler';
import { requestIdOf } from '@/lib/http/request-id';
import { problem } from '@/lib/http/problem';
import { answerInboxItem } from '@/lib/inbox/answer';
import { answerRequestSchema } from '@/lib/inbox/schemas';
import { answerResponse } from '../../http';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Answers an inbox item, exactly once per Idempotency-Key and once per place (docs/inbox.md#answering). */
export const POST = apiHandler<{ id: string }>('inbox:write', async (request, principal, { id }) => {
  if (!UUID.test(id))
    return problem({ status: 404, title: 'Not Found', detail: 'No such inbox item in this workspace.' });
  const input = await readKeyedRequest(request, answerRequestSchema);
  if (!input.ok) return input.response;
  const name = await getApiKeyName(getDb(), { workspaceId: principal.workspaceId, apiKeyId: principal.apiKeyId });
  const result = await answerInboxItem(getDb(), id, input.data, {
    workspaceId: principal.workspaceId,
    idempotencyKey: input.key,
    actorName: name ? `API key “${name}”` : 'An API key',
    actor: `api_key:${principal.apiKeyId}`,
    apiKeyId: principal.apiKeyId,
    source: 'api',
    requestId: requestIdOf(request.headers),
  });
  return answerResponse(result);
});

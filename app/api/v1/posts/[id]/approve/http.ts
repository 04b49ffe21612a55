import type { z } from 'zod';
import { getDb } from '@/db/client';
import { getApiKeyName } from '@/db/queries/api-keys';
import { json, readJson, validationProblem } from '@/lib/api/handler';
import type { ApiPrincipal } from '@/lib/auth/api-key';
import { decideApproval, type Decision } from '@/lib/approvals/decide';
import { decisionMessage } from '@/lib/approvals/messages';
import { problem } from '@/lib/http/problem';
import { notFound } from '../../http';

/**
 * POST /posts/{id}/approve and /reject: one decision per revision. A repeat of the same decision answers 200 with
 * `alreadyDecided: true` (idempotent); the other decision already made, an edit since `revision`, or a post not
 * waiting for approval answer 409.
 */
export async function decideFromApi(
  request: Request,
  principal: ApiPrincipal,
  postId: string,
  decision: Decision,
  schema: z.ZodType<{ comment?: string; revision?: number }>,
): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) return validationProblem(parsed.error);
  const db = getDb();
  const keyName = await getApiKeyName(db, { workspaceId: principal.workspaceId, apiKeyId: principal.apiKeyId });
  const result = await decideApproval(db, {
    workspaceId: principal.workspaceId,
    postId,
    decision,
    comment: parsed.data.comment,
    revision: parsed.data.revision,
    decider: { kind: 'api_key', apiKeyId: principal.apiKeyId, name: `API key “${keyName ?? 'unnamed'}”` },
  });
  const detail = decisionMessage(result).message;
  switch (result.kind) {
    case 'decided':
      return json({ postId, ...result.decision, alreadyDecided: false });
    case 'already_decided':
      if (result.decision.decision === decision) return json({ postId, ...result.decision, alreadyDecided: true });
      return problem({ status: 409, title: 'Already decided', detail, decision: result.decision });
    case 'not_found':
      return notFound();
    case 'invalid':
      return problem({ status: 422, title: 'Unprocessable Content', detail, errors: result.errors });
    case 'stale':
      return problem({ status: 409, title: 'Edited since', detail, currentRevision: result.currentRevision });
    case 'not_awaiting':
      return problem({ status: 409, title: 'Not awaiting approval', detail });
  }
}

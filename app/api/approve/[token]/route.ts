import { getDb } from '@/db/client';
import { json, readJson, validationProblem } from '@/lib/api/handler';
import { decideThroughLink, linkDecisionSchema } from '@/lib/approvals/link-decide';
import { checkApprovalLink } from '@/lib/approvals/links';
import { decisionMessage } from '@/lib/approvals/messages';
import { readApprovalPosts } from '@/lib/approvals/view';
import { requestAddress } from '@/lib/auth/request-address';
import { problem } from '@/lib/http/problem';
import { logger } from '@/lib/logging/logger';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

/**
 * The client's approval link, without a session: the token alone decides (404 unknown or altered — one answer, 410 expired
 * or revoked, 429 past the address's or the link's per-minute limit). GET reads the listed posts; POST records one decision.
 */
export async function GET(_request: Request, context: Context): Promise<Response> {
  const { token } = await context.params;
  const db = getDb();
  const check = await checkApprovalLink(db, token, requestAddress());
  if (!check.ok) return problem({ status: check.status, title: check.title, detail: check.detail });
  const posts = await readApprovalPosts(db, {
    workspaceId: check.link.workspaceId,
    postIds: check.link.postIds,
    audience: 'client',
  });
  return json({ label: check.link.label, expiresAt: check.link.expiresAt.toISOString(), posts });
}

export async function POST(request: Request, context: Context): Promise<Response> {
  const { token } = await context.params;
  try {
    const body = await readJson(request);
    if (!body.ok) return body.response;
    const parsed = linkDecisionSchema.safeParse(body.value);
    if (!parsed.success) return validationProblem(parsed.error);
    const outcome = await decideThroughLink(getDb(), token, parsed.data, requestAddress());
    if (!outcome.ok) return problem({ status: outcome.status, title: outcome.title, detail: outcome.detail });
    const { result } = outcome;
    const { message } = decisionMessage(result);
    switch (result.kind) {
      case 'decided':
        return json({ message, decision: result.decision }, 201);
      case 'already_decided':
        return problem({ status: 409, title: 'Already decided', detail: message, decision: result.decision });
      case 'invalid':
        return problem({ status: 422, title: 'Unprocessable Content', detail: message, errors: result.errors });
      case 'not_found':
        return problem({ status: 404, title: 'Not Found', detail: 'This link does not cover that post.' });
      default:
        return problem({ status: 409, title: 'Conflict', detail: message });
    }
  } catch (error) {
    logger.error({ err: error }, 'approval link decision failed');
    return problem({ status: 500, title: 'Internal Server Error', detail: 'Something went wrong; please try again.' });
  }
}

import type { Executor } from '@/db/client';
import { getDecision } from '@/db/queries/approvals';
import { getUserById } from '@/db/queries/users';
import type { ApprovalDecision } from '@/db/schema';
import type { DecideResult } from './decide';

/** What a client is told of a decision made by the agency: never an email, an API key's name or an id. */
export const AGENCY_DECIDER = 'Your agency';

/** Who decided, as a client may read it: the name given on a link, a member's own name, else "Your agency". */
export async function clientDeciderName(db: Executor, row: ApprovalDecision): Promise<string> {
  if (row.approvalLinkId) return row.deciderName;
  const user = row.decidedByUserId ? await getUserById(db, { userId: row.decidedByUserId }) : null;
  const name = user?.name?.trim() ?? '';
  // A member without a name of their own shows their email in the team's views: a client never sees it.
  return name && !name.includes('@') ? name : AGENCY_DECIDER;
}

/** A decision result as a client link answers it: the decider named as clientDeciderName does. */
export async function forClient(
  db: Executor,
  params: { workspaceId: string; postId: string },
  result: DecideResult,
): Promise<DecideResult> {
  if (result.kind !== 'decided' && result.kind !== 'already_decided') return result;
  const row = await getDecision(db, { ...params, revision: result.decision.revision });
  const deciderName = row ? await clientDeciderName(db, row) : AGENCY_DECIDER;
  return { ...result, decision: { ...result.decision, deciderName } };
}

import { z } from 'zod';
import type { Database } from '@/db/client';
import { decideApproval, MAX_COMMENT, type DecideResult } from './decide';
import { forClient } from './client-decider';
import { checkApprovalLink, type LinkCheck } from './links';

export const linkDecisionSchema = z.object({
  postId: z.uuid(),
  decision: z.enum(['approved', 'changes_requested']),
  comment: z.string().max(MAX_COMMENT, `At most ${MAX_COMMENT} characters`).optional(),
  /** The revision the client was shown: an edit since then is not approved unseen. */
  revision: z.number().int().min(1),
  name: z.string().trim().max(80, 'At most 80 characters').optional(),
});
export type LinkDecisionInput = z.output<typeof linkDecisionSchema>;

/**
 * A client's decision through a link: the link must be valid now and list the post; it is recorded with the
 * link (audit: which link) and the name the client gave, if any.
 */
export async function decideThroughLink(
  db: Database,
  token: string,
  input: LinkDecisionInput,
  address: string | null,
): Promise<Extract<LinkCheck, { ok: false }> | { ok: true; result: DecideResult }> {
  const check = await checkApprovalLink(db, token, address);
  if (!check.ok) return check;
  const { link } = check;
  if (!link.postIds.includes(input.postId)) return { ok: true, result: { kind: 'not_found' } };
  const result = await decideApproval(db, {
    workspaceId: link.workspaceId,
    postId: input.postId,
    decision: input.decision,
    comment: input.comment,
    revision: input.revision,
    decider: {
      kind: 'link',
      linkId: link.id,
      name: input.name ? `${input.name} (client link)` : 'The client (approval link)',
    },
  });
  return { ok: true, result: await forClient(db, { workspaceId: link.workspaceId, postId: input.postId }, result) };
}

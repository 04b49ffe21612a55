import type { Executor } from '@/db/client';
import { getDecision } from '@/db/queries/approvals';
import { getPostsMedia } from '@/db/queries/media';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { getEnv } from '@/lib/env';
import { signedMediaUrl } from '@/lib/media/signed-url';
import type { ProviderName } from '@/lib/providers/types';
import { clientDeciderName } from './client-decider';
import { toDecisionView, type DecisionView } from './decide';

/**
 * One post as the approver sees it: per target account the text it will publish (its own variant, or each
 * thread part), the images, the time — and nothing else of the workspace (the client's page shows only this).
 */
export type ApprovalPostView = {
  id: string;
  revision: number;
  kind: string;
  scheduledAt: string;
  state: 'pending' | 'approved' | 'changes_requested' | 'not_awaiting';
  decision: DecisionView | null;
  networks: {
    /** The account's id in team views; for a client only its position (`n1`, `n2`…), never an internal id. */
    accountId: string;
    handle: string;
    provider: ProviderName;
    /** One text per thread part (one for other kinds). */
    texts: string[];
  }[];
  /** Signed, expiring image URLs (no session needed), by thread part. */
  images: { part: number; url: string; altText: string }[];
};

/** Who reads: the team (dashboard) or a client through a link, who sees names only (lib/approvals/client-decider.ts). */
export type ApprovalAudience = 'team' | 'client';

export async function readApprovalPost(
  db: Executor,
  params: { workspaceId: string; postId: string; audience?: ApprovalAudience },
): Promise<ApprovalPostView | null> {
  const client = params.audience === 'client';
  const found = await getPostWithDeliveries(db, params);
  if (!found) return null;
  const { post, deliveries, parts } = found;
  const decision = await getDecision(db, { ...params, revision: post.revision });
  const live = deliveries.filter((d) => d.status !== 'canceled');
  const awaiting = live.some((d) => d.status === 'awaiting_approval');
  const accounts = [...new Map(live.map((d) => [d.accountId, d])).values()];
  const media = await getPostsMedia(db, { postIds: [post.id] });
  const key = getEnv().APP_ENCRYPTION_KEY;
  return {
    id: post.id,
    revision: post.revision,
    kind: post.kind,
    scheduledAt: post.scheduledAt.toISOString(),
    decision: decision
      ? { ...toDecisionView(decision), ...(client ? { deciderName: await clientDeciderName(db, decision) } : {}) }
      : null,
    state: decision ? decision.decision : awaiting ? 'pending' : 'not_awaiting',
    networks: accounts.map((d, i) => ({
      accountId: client ? `n${i + 1}` : d.accountId,
      handle: d.accountHandle,
      provider: d.accountProvider,
      // A post's first comment (its part 1 on this account) is shown after it, as a thread's next part is.
      texts:
        post.kind === 'thread'
          ? parts
          : live.some((c) => c.accountId === d.accountId && c.part === 1)
            ? [d.variantText ?? post.text, d.variantFirstComment ?? post.firstComment ?? '']
            : [d.variantText ?? post.text],
    })),
    images: media.map((m) => ({
      part: m.part,
      altText: m.altText,
      url: signedMediaUrl({ origin: '', sha256: m.sha256, encryptionKey: key }),
    })),
  };
}

/** Every post a client link lists, in the link's workspace only (a post moved or deleted is left out). */
export async function readApprovalPosts(
  db: Executor,
  params: { workspaceId: string; postIds: string[]; audience?: ApprovalAudience },
) {
  const views = await Promise.all(params.postIds.map((postId) => readApprovalPost(db, { ...params, postId })));
  return views
    .filter((v): v is ApprovalPostView => v !== null)
    .sort((a, b) => a.scheduledAt.localeCompare(b.scheduledAt));
}

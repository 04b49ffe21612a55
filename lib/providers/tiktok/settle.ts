import type { CallBudget } from '../call-budget';
import { notCalled, sleep } from '../media-step';
import type { Classification, RawOutcome } from '../types';
import type { StatusRead, TiktokApi } from './api';
import { classifyTiktok } from './classifier';

/** Below this much budget no further status read is started. */
const MIN_READ_MS = 300;
/** Status reads are limited to 30 a minute per token: polls within one attempt back off. */
const POLL_START_MS = 500;
const POLL_MAX_MS = 4_000;

/**
 * What a publish's status says, read within the attempt's budget (TikTok processes a video after answering init):
 * PUBLISH_COMPLETE → sent (the post id once moderation gave one), SEND_TO_USER_INBOX → sent to the inbox (that mode's
 * success), FAILED → failed with TikTok's reason. Still processing, unknown or unreadable when the budget ends →
 * ambiguous with the publish_id: the reconciler reads the status later (client.ts readBack), and nothing inits again.
 */
export async function settlePublish(
  api: TiktokApi,
  publishId: string,
  budget: CallBudget,
  context: { username: string | null; fresh: boolean },
): Promise<[Classification, RawOutcome]> {
  let wait = POLL_START_MS;
  let read: StatusRead | null = null;
  while (budget.left() >= MIN_READ_MS) {
    read = await api.status(publishId, budget.options());
    if (read.kind === 'status') {
      const settled = settledBy(read, publishId, context.username);
      if (settled) return [settled, read.raw];
    } else if (read.kind === 'missing' || !context.fresh) break;
    if (budget.left() < wait + MIN_READ_MS) break;
    await sleep(wait);
    wait = Math.min(POLL_MAX_MS, wait * 2);
  }
  return [pending(read, publishId), read?.raw ?? notCalled('No status read fitted in the attempt')];
}

/** A terminal status as an outcome; null while TikTok is still processing. */
export function settledBy(
  read: Extract<StatusRead, { kind: 'status' }>,
  publishId: string,
  username: string | null,
): Classification | null {
  const evidence = { publishId, status: read.status, postIds: read.postIds };
  switch (read.status) {
    case 'PUBLISH_COMPLETE': {
      const postId = read.postIds[0];
      return {
        outcome: 'sent',
        rule: 'tiktok-publish-complete',
        // A private post gets no public id: the publish_id is then the delivery's only handle on it.
        externalId: postId ?? publishId,
        ...(postId && username ? { url: `https://www.tiktok.com/@${username}/video/${postId}` } : {}),
        reason: postId
          ? 'Published on TikTok (PUBLISH_COMPLETE).'
          : 'Published on TikTok (PUBLISH_COMPLETE); TikTok gives no public post id for it (a private post).',
        evidence,
      };
    }
    case 'SEND_TO_USER_INBOX':
      return {
        outcome: 'sent',
        rule: 'tiktok-sent-to-inbox',
        externalId: publishId,
        reason: 'Sent to the creator’s TikTok inbox: they finish the post in the TikTok app.',
        evidence,
      };
    case 'FAILED':
      return {
        outcome: 'failed',
        rule: 'tiktok-publish-failed',
        reason: `TikTok could not publish the video (${read.failReason ?? 'no reason given'}); nothing was posted.`,
        evidence: { ...evidence, failReason: read.failReason },
      };
    default:
      return null;
  }
}

function pending(read: StatusRead | null, publishId: string): Classification {
  if (read?.kind === 'missing')
    return {
      outcome: 'ambiguous',
      rule: 'tiktok-publish-unknown',
      reason: `TikTok does not know the publish ${publishId}: an admin checks the account.`,
      evidence: { publishId, missing: true },
    };
  if (read?.kind === 'unreadable') {
    const c = classifyTiktok(read.raw);
    return {
      outcome: 'ambiguous',
      rule: 'tiktok-status-unreadable',
      httpStatus: c.httpStatus,
      reason: `TikTok accepted the video, but its status could not be read (${c.reason}); it is read again later, never sent again.`,
      evidence: { ...c.evidence, publishId, statusRule: c.rule },
    };
  }
  return {
    outcome: 'ambiguous',
    rule: 'tiktok-processing',
    reason: `TikTok is still processing the video (${read?.kind === 'status' ? read.status : 'not read yet'}); its status is read again later, never sent again.`,
    evidence: { publishId, status: read?.kind === 'status' ? read.status : null },
  };
}

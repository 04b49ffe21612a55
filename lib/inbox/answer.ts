import type { Database, Transaction } from '@/db/client';
import {
  getItemToAnswer,
  listItemAnswers,
  takeInboxAnswer,
  type AnswerView,
  type ItemToAnswer,
} from '@/db/queries/inbox/answers';
import type { ProviderName } from '@/db/schema';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotent, type OperationResult } from '@/lib/idempotency/run-idempotent';
import { settleIdempotent, type KeyRefusal } from '@/lib/idempotency/settle';
import { logger } from '@/lib/logging/logger';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { createPostInTransaction } from '@/lib/posts/create';
import type { FieldErrors } from '@/lib/posts/targets';
import { answerTarget, type Answerable } from './answerable';

export const ANSWER_OPERATION = 'inbox.reply';

export type AnswerRequest = {
  text: string;
  /**
   * How many answers the member saw the item have: 0 for its first answer; "send another reply anyway" sends the
   * count it showed, and adds the next one. Whoever takes a place first keeps it: the other is told who answered.
   */
  after: number;
};

export type AnswerContext = {
  workspaceId: string;
  idempotencyKey: string;
  /** Who answers: a member (`userId`) or an API key (`apiKeyId`), and how the other teammates will see them named. */
  actorName: string;
  actor: string;
  userId?: string;
  apiKeyId?: string;
  source: 'form' | 'api';
  requestId?: string;
};

/** The answer as stored for the key (a retry replays exactly this). */
export type AnswerBody = {
  answer: { id: string; itemId: string; number: number; text: string; by: string; postId: string };
  post: unknown;
};

export type AnswerRejection =
  | { kind: 'not_found' }
  | { kind: 'not_answerable'; reason: string }
  | { kind: 'invalid'; errors: FieldErrors }
  /** Someone took that place first: who, what, and how many answers there are now (for "send another anyway"). */
  | { kind: 'already_answered'; answer: AnswerView; answers: number }
  /**
   * The account answered it on the platform itself (another app), seen by the inbox job: that answer holds place 1.
   * Which message it was and when, and how many answers there are now (for "send another anyway").
   */
  | {
      kind: 'answered_on_platform';
      network: ProviderName;
      platformAnswerId: string | null;
      platformAnswerText: string | null;
      answeredAt: string | null;
      answers: number;
    };

export type AnswerResult =
  | { kind: 'ok'; replayed: boolean; itemId: string; stored: { status: number; body: string } }
  | AnswerRejection
  | KeyRefusal;

/**
 * Answers an inbound item exactly once per intent (docs/inbox.md#answering): under the request's key (a retry, a
 * double click or a reload resubmitting it replays the first answer), the place `after + 1` is taken in the same
 * transaction as the reply post (`inbox_answers_item_number_uq`: of two teammates sending at once, one answer is
 * written and the other is refused with it). The reply is a post of kind `reply` (or `dm`) on the item's account,
 * published and reconciled like any post.
 */
export async function answerInboxItem(
  db: Database,
  itemId: string,
  request: AnswerRequest,
  context: AnswerContext,
): Promise<AnswerResult> {
  const outcome = await runIdempotent<AnswerRejection>(
    db,
    {
      workspaceId: context.workspaceId,
      operation: ANSWER_OPERATION,
      key: context.idempotencyKey,
      fingerprint: fingerprint({ itemId, text: request.text.normalize('NFC'), after: request.after }),
    },
    (tx) => answerInTransaction(tx, itemId, request, context),
  );
  return settleIdempotent(outcome, {
    answered: ({ status, body }, replayed): AnswerResult => {
      if (!replayed)
        logger.info({ itemId, workspaceId: context.workspaceId, requestId: context.requestId }, 'inbox item answered');
      return { kind: 'ok', replayed, itemId, stored: { status, body } };
    },
    rejected: (rejection) => rejection,
  });
}

async function answerInTransaction(
  tx: Transaction,
  itemId: string,
  request: AnswerRequest,
  context: AnswerContext,
): Promise<OperationResult<AnswerRejection>> {
  const reject = (rejection: AnswerRejection) => ({ store: false as const, rejection });
  const item = await getItemToAnswer(tx, { workspaceId: context.workspaceId, itemId });
  if (!item) return reject({ kind: 'not_found' });
  const target: Answerable = answerTarget(item);
  if (!target.ok) return reject({ kind: 'not_answerable', reason: target.reason });
  // The account answered it on the platform (another app) after what the member saw: a second answer, refused unless
  // they send another anyway with the count that includes it.
  if (item.answerSource === 'platform' && request.after < item.answers)
    return reject(await placeTaken(tx, item, request.after));
  if (request.after > item.answers)
    return reject({
      kind: 'invalid',
      errors: { after: [`The item has ${item.answers} answer${item.answers === 1 ? '' : 's'}, not ${request.after}`] },
    });
  const created = await createPostInTransaction(
    tx,
    { text: request.text, accountIds: [item.accountId], kind: target.kind, ...target.fields },
    {
      workspaceId: context.workspaceId,
      source: context.source,
      // Its own namespace among the workspace's post keys (posts_workspace_idempotency_key_uq).
      idempotencyKey: `inbox:${context.idempotencyKey}`,
      actor: context.actor,
      userId: context.userId,
      apiKeyId: context.apiKeyId,
      requestId: context.requestId,
    },
    // An answer's links are sent as written (no short links: tracking is for posts).
    null,
  );
  if (!created.store) {
    const rejection = created.rejection;
    return reject(rejection.kind === 'invalid' ? rejection : { kind: 'invalid', errors: { text: ['Refused'] } });
  }
  const postId = created.resourceId!;
  const answerId = await takeInboxAnswer(tx, {
    workspaceId: context.workspaceId,
    itemId,
    number: request.after + 1,
    postId,
    userId: context.userId ?? null,
    apiKeyId: context.apiKeyId ?? null,
    actorName: context.actorName,
    text: request.text,
  });
  if (!answerId) {
    // The place was taken meanwhile (the statement waited for the winner's commit): tell who, and what.
    const now = (await getItemToAnswer(tx, { workspaceId: context.workspaceId, itemId }))!;
    return reject(await placeTaken(tx, now, request.after));
  }
  const body: AnswerBody = {
    answer: { id: answerId, itemId, number: request.after + 1, text: request.text, by: context.actorName, postId },
    post: JSON.parse(created.body),
  };
  return { store: true, status: 201, body: JSON.stringify(body), resourceId: answerId, retainUntil: new Date() };
}

/** Why place `after + 1` is not free: the teammate (or key) holding it, else the account's answer on the platform. */
async function placeTaken(tx: Transaction, item: ItemToAnswer, after: number): Promise<AnswerRejection> {
  const holder = (await listItemAnswers(tx, { itemId: item.id })).find((a) => a.number === after + 1);
  if (holder) return { kind: 'already_answered', answer: holder, answers: item.answers };
  return {
    kind: 'answered_on_platform',
    network: item.provider,
    platformAnswerId: item.platformAnswerId,
    platformAnswerText: item.platformAnswerText,
    answeredAt: item.answeredAt,
    answers: item.answers,
  };
}

/** "The account answered it on X itself (another app) at …: “Thanks!”." — for the API's 409 and the page. */
export function answeredOnPlatformText(r: Extract<AnswerRejection, { kind: 'answered_on_platform' }>): string {
  const at = r.answeredAt ? ` at ${r.answeredAt}` : '';
  const which = r.platformAnswerText
    ? `: “${r.platformAnswerText}”`
    : r.platformAnswerId
      ? `: its reply ${r.platformAnswerId}`
      : '';
  return `The account answered it on ${PROVIDER_META[r.network].label} itself (another app)${at}${which}.`;
}

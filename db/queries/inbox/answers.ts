import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import type { InboxItemKind, ProviderName } from '../../schema';
import { rows } from '../deliveries/rows';

// Answers to inbound items (docs/inbox.md#answering). Taking an item for an answer is one insert whose unique
// constraint (`inbox_answers_item_number_uq`) picks one winner among teammates, double clicks and resubmissions;
// the answer's reply is an ordinary post written in the same transaction.

export type ItemToAnswer = {
  id: string;
  workspaceId: string;
  accountId: string;
  provider: ProviderName;
  platformId: string;
  kind: InboxItemKind;
  authorPlatformId: string | null;
  authorHandle: string;
  /** Places taken: its answers from Semel, and the account's own answer on the platform (place 1) where it has one. */
  answers: number;
  /** `platform`: the account answered it on the platform itself (another app) before Semel did. */
  answerSource: 'semel' | 'platform' | null;
  platformAnswerId: string | null;
  /** What that answer said, where the read had it (kept while the account's own messages are: 30 days). */
  platformAnswerText: string | null;
  answeredAt: string | null;
};

/** The item as an answer needs it, with how many answers it has; null when it is not the workspace's. */
export async function getItemToAnswer(
  db: Executor,
  params: { workspaceId: string; itemId: string },
): Promise<ItemToAnswer | null> {
  const [row] = rows<ItemToAnswer>(
    await db.execute(sql`
      select i.id, i.workspace_id as "workspaceId", i.account_id as "accountId", i.provider, i.platform_id as "platformId",
        i.kind, i.author_platform_id as "authorPlatformId", i.author_handle as "authorHandle",
        (select count(*)::int from inbox_answers a where a.item_id = i.id)
          + (case when i.answer_source = 'platform' then 1 else 0 end) as answers,
        i.answer_source as "answerSource", i.platform_answer_id as "platformAnswerId",
        (select o.text from inbox_own_messages o where o.account_id = i.account_id
          and o.platform_id = i.platform_answer_id) as "platformAnswerText",
        to_json(i.answered_at)#>>'{}' as "answeredAt"
      from inbox_items i where i.id = ${params.itemId} and i.workspace_id = ${params.workspaceId}`),
  );
  return row ?? null;
}

/**
 * Takes answer `number` of the item for this reply post: the one statement that decides between answers racing
 * for the same place (a concurrent one waits for the first to commit, then inserts nothing). An answer the account
 * gave on the platform itself counts as one more answer: while the item is marked so, a place is free only past every
 * answer, that one included. The item row is locked and checked in the same statement, so an inbox read marking it
 * answered there and a first answer from Semel cannot both win. Marks the item answered. The
 * answer's id, or null when that place was taken.
 */
export async function takeInboxAnswer(
  db: Executor,
  params: {
    workspaceId: string;
    itemId: string;
    number: number;
    postId: string;
    userId: string | null;
    apiKeyId: string | null;
    actorName: string;
    text: string;
  },
): Promise<string | null> {
  const [row] = rows<{ id: string }>(
    await db.execute(sql`
      with free as (
        select i.id from inbox_items i
        where i.id = ${params.itemId} and (i.answer_source is distinct from 'platform'
          or ${params.number}::int > 1 + (select count(*) from inbox_answers o where o.item_id = i.id))
        for update
      ), taken as (
        insert into inbox_answers (workspace_id, item_id, number, post_id, user_id, api_key_id, actor_name, text)
        select ${params.workspaceId}::uuid, free.id, ${params.number}::int, ${params.postId}::uuid, ${params.userId}::uuid,
          ${params.apiKeyId}::uuid, ${params.actorName}::text, ${params.text}::text
        from free
        on conflict (item_id, number) do nothing
        returning id, item_id
      ), marked as (
        update inbox_items i set answered_at = coalesce(i.answered_at, now()),
          answer_source = coalesce(i.answer_source, 'semel')
        from taken where i.id = taken.item_id
        returning i.id
      ), present as (
        delete from inbox_presence p using taken where p.item_id = taken.item_id and p.user_id = ${params.userId}
      )
      select id from taken`),
  );
  return row?.id ?? null;
}

export type AnswerView = {
  id: string;
  number: number;
  actorName: string;
  userId: string | null;
  text: string;
  createdAt: string;
  postId: string;
  /** The reply's delivery: where it stands on the platform. */
  deliveryId: string | null;
  status: string | null;
  externalUrl: string | null;
  failureReason: string | null;
};

/** The item's answers, in order, with how each reply stands. */
export async function listItemAnswers(db: Executor, params: { itemId: string }): Promise<AnswerView[]> {
  return rows<AnswerView>(
    await db.execute(sql`
      select a.id, a.number, a.actor_name as "actorName", a.user_id as "userId", a.text,
        to_json(a.created_at)#>>'{}' as "createdAt", a.post_id as "postId", d.id as "deliveryId", d.status::text as status,
        d.external_url as "externalUrl", d.failure_reason as "failureReason"
      from inbox_answers a left join deliveries d on d.post_id = a.post_id
      where a.item_id = ${params.itemId}
      order by a.number`),
  );
}

/**
 * Answers whose reply has ended since the last look (sent; or failed, canceled, missed): each marked once with its
 * outcome (the update takes only unsettled rows, so two jobs settle it once). A failed answer leaves the item
 * unanswered again when none of its other answers is live. Returns what was settled, for `inbox.answered`.
 */
export async function settleInboxAnswers(db: Executor, params: { limit: number }) {
  return rows<{
    id: string;
    workspaceId: string;
    itemId: string;
    number: number;
    outcome: 'sent' | 'failed';
    actorName: string;
    text: string;
    deliveryId: string;
    externalId: string | null;
    externalUrl: string | null;
    accountId: string;
    provider: ProviderName;
  }>(
    await db.execute(sql`
      with due as (
        select a.id, d.id as delivery_id, case when d.status = 'sent' then 'sent' else 'failed' end as outcome
        from inbox_answers a join deliveries d on d.post_id = a.post_id
        where a.settled_at is null and d.status in ('sent', 'failed', 'canceled', 'missed')
        order by a.created_at
        limit ${params.limit}
        for update of a skip locked
      ), settled as (
        update inbox_answers a set settled_at = now(), outcome = due.outcome
        from due where a.id = due.id and a.settled_at is null
        returning a.id, a.workspace_id, a.item_id, a.number, a.outcome, a.actor_name, a.text, due.delivery_id
      ), reopened as (
        update inbox_items i set answered_at = null, answer_source = null
        from settled s
        where s.outcome = 'failed' and i.id = s.item_id and i.answer_source = 'semel'
          and not exists (
            select 1 from inbox_answers o join deliveries d on d.post_id = o.post_id
            where o.item_id = i.id and o.id <> s.id and d.status not in ('failed', 'canceled', 'missed'))
        returning i.id
      )
      select s.id, s.workspace_id as "workspaceId", s.item_id as "itemId", s.number, s.outcome,
        s.actor_name as "actorName", s.text, s.delivery_id as "deliveryId", d.external_id as "externalId",
        d.external_url as "externalUrl", d.account_id as "accountId", i.provider
      from settled s join deliveries d on d.id = s.delivery_id join inbox_items i on i.id = s.item_id`),
  );
}

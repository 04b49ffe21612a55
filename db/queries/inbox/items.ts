import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import type { InboxItemKind, ProviderName } from '../../schema';
import { rows } from '../deliveries/rows';
import { interval, jsonb } from '../sql-params';

// Storing what the inbox job read (docs/inbox.md#reading): each item once per account and platform id
// (`inbox_items_account_platform_uq`), placed under our post, and answered where the account already answered it.

export type NewInboxItem = {
  platformId: string;
  kind: InboxItemKind;
  authorPlatformId: string | null;
  authorHandle: string;
  authorName: string | null;
  text: string;
  url: string | null;
  media: { type: string; url: string }[];
  inReplyTo: string | null;
  conversationId: string | null;
  receivedAt: Date;
};

export type StoredInboxItem = {
  id: string;
  platformId: string;
  kind: InboxItemKind;
  authorHandle: string;
  authorName: string | null;
  text: string;
  url: string | null;
  receivedAt: string;
  deliveryId: string | null;
  answered: boolean;
};

/**
 * Inserts the items not stored yet and returns those this call stored (a re-read or a racing reader stores nothing
 * twice: `on conflict do nothing`). In the same statement: each is placed under our post (`delivery_id`: the delivery
 * whose platform id it answers, or the post of the item or answer it answers); a `reply` under nothing of ours is a
 * `mention`; one the account already answered on the platform (`inbox_own_messages`) is stored answered.
 */
export async function insertInboxItems(
  db: Executor,
  params: { workspaceId: string; accountId: string; provider: ProviderName; stream: string; items: NewInboxItem[] },
): Promise<StoredInboxItem[]> {
  if (params.items.length === 0) return [];
  const input = params.items.map((i) => ({
    platform_id: i.platformId,
    kind: i.kind,
    author_platform_id: i.authorPlatformId,
    author_handle: i.authorHandle,
    author_name: i.authorName,
    text: i.text,
    url: i.url,
    media: i.media,
    in_reply_to: i.inReplyTo,
    conversation_id: i.conversationId,
    received_at: i.receivedAt.toISOString(),
  }));
  const account = params.accountId;
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${jsonb(input)}) as i(platform_id text, kind text, author_platform_id text,
        author_handle text, author_name text, text text, url text, media jsonb, in_reply_to text, conversation_id text,
        received_at timestamptz)
    ), parents as (select distinct in_reply_to as id from input where in_reply_to is not null),
    ours as (
      select d.external_id as id, min(d.id::text)::uuid as delivery_id from deliveries d
      where d.account_id = ${account} and d.external_id in (select id from parents) group by d.external_id
    ), known as (
      select ii.platform_id as id, ii.delivery_id from inbox_items ii
      where ii.account_id = ${account} and ii.platform_id in (select id from parents)
    ), answered as (
      select d.external_id as id, min(ii.delivery_id::text)::uuid as delivery_id
      from deliveries d join inbox_answers an on an.post_id = d.post_id join inbox_items ii on ii.id = an.item_id
      where d.account_id = ${account} and d.external_id in (select id from parents) group by d.external_id
    ), placed as (
      select i.*, coalesce(ours.delivery_id, known.delivery_id, answered.delivery_id) as delivery_id,
        (ours.id is not null or known.id is not null or answered.id is not null
          or exists (select 1 from input j where j.platform_id = i.in_reply_to)) as under_ours,
        (select min(o.created_at) from inbox_own_messages o
          where o.account_id = ${account} and (o.in_reply_to = i.platform_id
            or (i.kind = 'dm' and o.conversation_id = i.conversation_id and o.created_at > i.received_at))) as own_at,
        (select o.platform_id from inbox_own_messages o
          where o.account_id = ${account} and (o.in_reply_to = i.platform_id
            or (i.kind = 'dm' and o.conversation_id = i.conversation_id and o.created_at > i.received_at))
          order by o.created_at limit 1) as own_id
      from input i
      left join ours on ours.id = i.in_reply_to
      left join known on known.id = i.in_reply_to
      left join answered on answered.id = i.in_reply_to
    )
    insert into inbox_items (workspace_id, account_id, provider, platform_id, kind, stream, author_platform_id,
      author_handle, author_name, text, url, media, in_reply_to, conversation_id, delivery_id, received_at,
      answered_at, answer_source, platform_answer_id)
    select ${params.workspaceId}, ${account}, ${params.provider}, p.platform_id,
      case when p.kind = 'reply' and not p.under_ours then 'mention' else p.kind end,
      ${params.stream}, p.author_platform_id, p.author_handle, p.author_name, p.text, p.url,
      coalesce(p.media, '[]'::jsonb), p.in_reply_to, p.conversation_id, p.delivery_id, p.received_at,
      p.own_at, case when p.own_at is not null then 'platform' end, p.own_id
    from placed p
    order by p.received_at
    on conflict (account_id, platform_id) do nothing
    returning id, platform_id as "platformId", kind, author_handle as "authorHandle", author_name as "authorName",
      text, url, to_json(received_at)#>>'{}' as "receivedAt", delivery_id as "deliveryId",
      answered_at is not null as answered`);
  return rows<StoredInboxItem>(result);
}

export type OwnMessageRow = {
  platformId: string;
  inReplyTo: string | null;
  conversationId: string | null;
  createdAt: Date;
  text?: string | null;
};

/**
 * Keeps the account's own messages seen on the platform and marks what they answer: an item it replied to, or a
 * DM conversation's messages up to its message. Returns the items this call marked (answered from another app, or
 * our own answer seen again: an item already answered stays as it was).
 */
export async function recordOwnMessages(
  db: Executor,
  params: { accountId: string; messages: OwnMessageRow[] },
): Promise<{ id: string; workspaceId: string; platformAnswerId: string }[]> {
  if (params.messages.length === 0) return [];
  const input = params.messages.map((m) => ({
    platform_id: m.platformId,
    in_reply_to: m.inReplyTo,
    conversation_id: m.conversationId,
    created_at: m.createdAt.toISOString(),
    text: m.text ?? null,
  }));
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${jsonb(input)})
        as o(platform_id text, in_reply_to text, conversation_id text, created_at timestamptz, text text)
    ), kept as (
      insert into inbox_own_messages (account_id, platform_id, in_reply_to, conversation_id, created_at, text)
      select ${params.accountId}, platform_id, in_reply_to, conversation_id, created_at, text from input
      on conflict do nothing
    )
    update inbox_items ii set answered_at = o.created_at, answer_source = 'platform', platform_answer_id = o.platform_id
    from input o
    where ii.account_id = ${params.accountId} and ii.answered_at is null
      and ((o.in_reply_to is not null and ii.platform_id = o.in_reply_to)
        or (o.conversation_id is not null and ii.kind = 'dm' and ii.conversation_id = o.conversation_id
          and ii.received_at < o.created_at))
    returning ii.id, ii.workspace_id as "workspaceId", ii.platform_answer_id as "platformAnswerId"`);
  return rows(result);
}

/** The account's own messages kept longer than any item they could still answer (the inbox job, in batches). */
export async function pruneInboxOwnMessages(db: Executor, params: { olderThanMs: number }): Promise<number> {
  const result = await db.execute(sql`
    delete from inbox_own_messages where ctid in (
      select ctid from inbox_own_messages where created_at < now() - ${interval(params.olderThanMs)} limit 1000)
    returning platform_id`);
  return [...result].length;
}

import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { rows } from '../deliveries/rows';
import { jsonb } from '../sql-params';
import { listItemAnswers, type AnswerView } from './answers';
import type { InboxListRow } from './list';

// One inbox item with what the conversation view shows: our post above it, the thread around it, its answers, the
// team's notes and who is replying now.

/** An item as the list shows it, with what the conversation adds. */
export type InboxItemView = Omit<InboxListRow, 'deliveryId' | 'answers'> & {
  authorPlatformId: string | null;
  media: { type: string; url: string }[];
  inReplyTo: string | null;
  conversationId: string | null;
  platformAnswerId: string | null;
  doneByName: string | null;
  /** Our post it is under: its text and link. */
  ourPost: { postId: string; text: string; url: string | null } | null;
};

export type ThreadEntry = {
  id: string;
  authorHandle: string;
  authorName: string | null;
  text: string;
  receivedAt: string;
};

export type InboxItemDetail = InboxItemView & {
  /** Other items of the same conversation (the parent, siblings, replies to it), oldest first, this one excluded. */
  thread: ThreadEntry[];
  answers: AnswerView[];
  notes: { id: string; userName: string | null; text: string; createdAt: string }[];
  /** Teammates replying to it now (heartbeats not expired), the viewer excluded. */
  replying: { userId: string; name: string }[];
};

/** The item in one of the member's workspaces (null: none of theirs), with its whole conversation view. */
export async function getInboxItemDetail(
  db: Executor,
  params: { itemId: string; workspaceIds: string[]; viewerId: string },
): Promise<InboxItemDetail | null> {
  const [item] = rows<InboxItemView>(
    await db.execute(sql`
      select i.id, i.workspace_id as "workspaceId", w.name as "workspaceName", i.account_id as "accountId",
        a.handle as "accountHandle", i.provider, i.kind, i.platform_id as "platformId",
        i.author_platform_id as "authorPlatformId", i.author_handle as "authorHandle", i.author_name as "authorName",
        i.text, i.url, i.media, i.in_reply_to as "inReplyTo", i.conversation_id as "conversationId",
        to_json(i.received_at)#>>'{}' as "receivedAt", to_json(i.answered_at)#>>'{}' as "answeredAt",
        i.answer_source as "answerSource", i.platform_answer_id as "platformAnswerId",
        to_json(i.done_at)#>>'{}' as "doneAt", done_by.name as "doneByName",
        i.assigned_to_user_id as "assignedToUserId", assignee.name as "assignedToName",
        case when d.id is null then null else json_build_object('postId', p.id, 'text', p.text, 'url', d.external_url) end
          as "ourPost"
      from inbox_items i
      join workspaces w on w.id = i.workspace_id
      join social_accounts a on a.id = i.account_id
      left join users done_by on done_by.id = i.done_by_user_id
      left join users assignee on assignee.id = i.assigned_to_user_id
      left join deliveries d on d.id = i.delivery_id
      left join posts p on p.id = d.post_id
      where i.id = ${params.itemId}
        and i.workspace_id in (select jsonb_array_elements_text(${jsonb(params.workspaceIds)})::uuid)`),
  );
  if (!item) return null;
  const thread = rows<ThreadEntry>(
    await db.execute(sql`
      select t.id, t.author_handle as "authorHandle", t.author_name as "authorName", t.text,
        to_json(t.received_at)#>>'{}' as "receivedAt"
      from inbox_items t
      where t.account_id = ${item.accountId} and t.id <> ${item.id}
        and (t.platform_id = ${item.inReplyTo}
          or (${item.inReplyTo}::text is not null and t.in_reply_to = ${item.inReplyTo})
          or t.in_reply_to = ${item.platformId}
          or (${item.conversationId}::text is not null and t.conversation_id = ${item.conversationId}))
      order by t.received_at, t.id
      limit 50`),
  );
  const notes = rows<InboxItemDetail['notes'][number]>(
    await db.execute(sql`
      select n.id, u.name as "userName", n.text, to_json(n.created_at)#>>'{}' as "createdAt"
      from inbox_notes n left join users u on u.id = n.user_id
      where n.item_id = ${item.id} order by n.created_at, n.id`),
  );
  return {
    ...item,
    thread,
    answers: await listItemAnswers(db, { itemId: item.id }),
    notes,
    replying: await listReplying(db, { itemId: item.id, viewerId: params.viewerId }),
  };
}

/** Who is replying to the item now (their heartbeat has not expired), the viewer excluded. */
export async function listReplying(db: Executor, params: { itemId: string; viewerId: string }) {
  return rows<{ userId: string; name: string }>(
    await db.execute(sql`
      select p.user_id as "userId", u.name from inbox_presence p join users u on u.id = p.user_id
      where p.item_id = ${params.itemId} and p.expires_at > now() and p.user_id <> ${params.viewerId}
      order by p.started_at`),
  );
}

import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../client';
import type { InboxItemKind, ProviderName } from '../../schema';
import { rows } from '../deliveries/rows';
import { jsonb } from '../sql-params';

// The inbox's reads (docs/inbox.md#the-page): one page of items across the workspaces a member sees, newest first,
// one index range per workspace whatever the table holds (inbox_items_workspace_received_idx and its open part).

export const INBOX_STATUSES = ['unanswered', 'answered', 'done', 'all'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

export type InboxFilter = {
  workspaceIds: string[];
  status: InboxStatus;
  accountId?: string;
  provider?: ProviderName;
  kind?: InboxItemKind;
  /** Only items assigned to this member. */
  assignedTo?: string;
  /** Keyset: items strictly older than this one (its time and id). */
  before?: { receivedAt: string; id: string };
  limit: number;
};

export type InboxListRow = {
  id: string;
  workspaceId: string;
  workspaceName: string;
  accountId: string;
  accountHandle: string;
  provider: ProviderName;
  kind: InboxItemKind;
  platformId: string;
  authorHandle: string;
  authorName: string | null;
  text: string;
  url: string | null;
  receivedAt: string;
  answeredAt: string | null;
  answerSource: 'semel' | 'platform' | null;
  doneAt: string | null;
  assignedToUserId: string | null;
  assignedToName: string | null;
  deliveryId: string | null;
  answers: number;
};

const statusCondition = (status: InboxStatus): SQL =>
  status === 'unanswered'
    ? sql`and i.answered_at is null and i.done_at is null`
    : status === 'answered'
      ? sql`and i.answered_at is not null and i.done_at is null`
      : status === 'done'
        ? sql`and i.done_at is not null`
        : sql``;

function conditions(filter: Omit<InboxFilter, 'workspaceIds' | 'limit'>): SQL {
  return sql`${statusCondition(filter.status)}
    ${filter.accountId ? sql`and i.account_id = ${filter.accountId}` : sql``}
    ${filter.provider ? sql`and i.provider = ${filter.provider}` : sql``}
    ${filter.kind ? sql`and i.kind = ${filter.kind}` : sql``}
    ${filter.assignedTo ? sql`and i.assigned_to_user_id = ${filter.assignedTo}` : sql``}
    ${filter.before ? sql`and (i.received_at, i.id) < (${filter.before.receivedAt}::timestamptz, ${filter.before.id}::uuid)` : sql``}`;
}

/** One page, newest first: per workspace an index range of at most `limit` rows, merged. */
export async function listInboxItems(db: Executor, filter: InboxFilter): Promise<InboxListRow[]> {
  if (filter.workspaceIds.length === 0) return [];
  const found = rows<InboxListRow & { sortAt?: unknown }>(
    await db.execute(sql`
      select x.*, w.name as "workspaceName", a.handle as "accountHandle", u.name as "assignedToName",
        -- The account's own answer on the platform is one of them (lib/inbox/answer.ts counts it too).
        (select count(*)::int from inbox_answers an where an.item_id = x.id)
          + (case when x."answerSource" = 'platform' then 1 else 0 end) as answers
      from jsonb_array_elements_text(${jsonb(filter.workspaceIds)}) as ws(id)
      cross join lateral (
        select i.id, i.workspace_id as "workspaceId", i.account_id as "accountId", i.provider, i.kind,
          i.platform_id as "platformId", i.author_handle as "authorHandle", i.author_name as "authorName", i.text, i.url,
          to_json(i.received_at)#>>'{}' as "receivedAt", to_json(i.answered_at)#>>'{}' as "answeredAt",
          i.answer_source as "answerSource", to_json(i.done_at)#>>'{}' as "doneAt",
          i.assigned_to_user_id as "assignedToUserId", i.delivery_id as "deliveryId", i.received_at as "sortAt"
        from inbox_items i
        where i.workspace_id = ws.id::uuid ${conditions(filter)}
        order by i.received_at desc, i.id desc
        limit ${filter.limit}
      ) x
      join workspaces w on w.id = x."workspaceId"
      join social_accounts a on a.id = x."accountId"
      left join users u on u.id = x."assignedToUserId"
      order by x."sortAt" desc, x.id desc
      limit ${filter.limit}`),
  );
  for (const row of found) delete row.sortAt;
  return found;
}

/** How many items each status holds (each count stops at `cap`: the page says "1,000+"). */
export async function countInboxItems(
  db: Executor,
  filter: Omit<InboxFilter, 'status' | 'before' | 'limit'> & { cap: number },
): Promise<Record<'unanswered' | 'answered' | 'done', number>> {
  if (filter.workspaceIds.length === 0) return { unanswered: 0, answered: 0, done: 0 };
  const count = (status: InboxStatus) => sql`(
    select count(*)::int from (
      select 1 from inbox_items i
      where i.workspace_id in (select jsonb_array_elements_text(${jsonb(filter.workspaceIds)})::uuid)
        ${conditions({ ...filter, status })}
      limit ${filter.cap}) c)`;
  const [row] = rows<Record<'unanswered' | 'answered' | 'done', number>>(
    await db.execute(
      sql`select ${count('unanswered')} as unanswered, ${count('answered')} as answered, ${count('done')} as done`,
    ),
  );
  return row!;
}

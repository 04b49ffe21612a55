import { z } from 'zod';
import type { Executor } from '@/db/client';
import { countInboxItems, listInboxItems, type InboxListRow } from '@/db/queries/inbox/list';
import { answerTarget } from './answerable';
import { listInboxQuerySchema } from './schemas';

// A page of the inbox (docs/inbox.md#the-page, GET /api/v1/inbox): the filters checked, the rows serialized the same
// way for the page and the API, keyset pagination by (received time, id).

export type InboxItemJson = {
  id: string;
  workspace: { id: string; name: string };
  account: { id: string; handle: string; network: InboxListRow['provider'] };
  kind: InboxListRow['kind'];
  platformId: string;
  author: { handle: string; name: string | null };
  text: string;
  url: string | null;
  receivedAt: string;
  status: 'unanswered' | 'answered' | 'done';
  answeredAt: string | null;
  answerSource: 'semel' | 'platform' | null;
  answers: number;
  assignedTo: { id: string; name: string | null } | null;
  deliveryId: string | null;
  /** Whether Semel can send its answer; if not, `notAnswerable` says where to answer it. */
  answerable: boolean;
  notAnswerable: string | null;
};

export function serializeInboxItem(row: InboxListRow): InboxItemJson {
  const target = answerTarget({ ...row, authorPlatformId: null });
  return {
    id: row.id,
    workspace: { id: row.workspaceId, name: row.workspaceName },
    account: { id: row.accountId, handle: row.accountHandle, network: row.provider },
    kind: row.kind,
    platformId: row.platformId,
    author: { handle: row.authorHandle, name: row.authorName },
    text: row.text,
    url: row.url,
    receivedAt: row.receivedAt,
    status: row.doneAt ? 'done' : row.answeredAt ? 'answered' : 'unanswered',
    answeredAt: row.answeredAt,
    answerSource: row.answerSource,
    answers: row.answers,
    assignedTo: row.assignedToUserId ? { id: row.assignedToUserId, name: row.assignedToName } : null,
    deliveryId: row.deliveryId,
    answerable: target.ok,
    notAnswerable: target.ok ? null : target.reason,
  };
}

export type InboxPage = {
  items: InboxItemJson[];
  nextCursor: string | null;
  /** Items per status under the same filters, each counted up to 1,000 (`1000` reads "1,000 or more"). */
  counts: { unanswered: number; answered: number; done: number };
};

export type ListInboxResult = { kind: 'ok'; page: InboxPage } | { kind: 'invalid'; errors: Record<string, string[]> };

export const COUNT_CAP = 1_000;

// Year 0000 passes an ISO check but not Postgres (a 500, not a 400): a cursor we made never names it.
const cursorSchema = z.tuple([z.iso.datetime({ offset: true }).refine((t) => !t.startsWith('0000')), z.uuid()]);
const encodeCursor = (row: InboxListRow) => Buffer.from(JSON.stringify([row.receivedAt, row.id])).toString('base64url');
function decodeCursor(value: string): { receivedAt: string; id: string } | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? { receivedAt: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

/** One page for the member (`assignedTo: 'me'` is theirs) or an API key, over the workspaces it may read. */
export async function listInboxPage(
  db: Executor,
  params: { workspaceIds: string[]; query: Record<string, string | undefined> },
): Promise<ListInboxResult> {
  const parsed = listInboxQuerySchema.safeParse(params.query);
  if (!parsed.success)
    return { kind: 'invalid', errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  const query = parsed.data;
  const before = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
  if (before === null)
    return {
      kind: 'invalid',
      errors: { cursor: ['Invalid cursor: pass the nextCursor of a previous page unchanged'] },
    };
  const filter = {
    workspaceIds: params.workspaceIds,
    accountId: query.account,
    provider: query.network,
    kind: query.kind,
    assignedTo: query.assignedTo,
  };
  const [rows, counts] = await Promise.all([
    listInboxItems(db, { ...filter, status: query.status, before, limit: query.limit + 1 }),
    countInboxItems(db, { ...filter, cap: COUNT_CAP }),
  ]);
  const page = rows.slice(0, query.limit);
  return {
    kind: 'ok',
    page: {
      items: page.map(serializeInboxItem),
      nextCursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null,
      counts,
    },
  };
}

import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { InboxView } from '@/components/inbox/inbox-view';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { queryKeys, type InboxQuery } from '@/lib/query/keys';
import { getServerQueryClient } from '@/lib/query/query-client';
import { readInboxList } from '@/lib/reads/inbox';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { answerItemAction, assignAction, doneAction, noteAction, presenceAction } from './actions';

export const metadata = { title: 'Inbox' };

const FILTERS = ['status', 'account', 'network', 'kind', 'assignedTo'] as const;

export default async function InboxPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const { memberships, user } = await requirePageWorkspace();
  const params = await searchParams;
  const query: InboxQuery = Object.fromEntries(
    FILTERS.flatMap((name) => (typeof params[name] === 'string' && params[name] ? [[name, params[name]]] : [])),
  );
  const db = getDb();
  const queryClient = getServerQueryClient();
  await queryClient.prefetchQuery({
    queryKey: queryKeys.inbox(query),
    queryFn: async () => {
      const result = await readInboxList(db, { memberships, userId: user.id, query });
      return result.kind === 'ok'
        ? result.page
        : { items: [], nextCursor: null, counts: { unanswered: 0, answered: 0, done: 0 } };
    },
  });
  const accounts = (await Promise.all(memberships.map((m) => listAccounts(db, { workspaceId: m.id }))))
    .flat()
    .map((a) => ({ id: a.id, label: `${a.handle} (${PROVIDER_META[a.provider].label})` }));
  return (
    <>
      <PageHeader
        title="Inbox"
        description={
          <>
            Replies, comments, mentions and messages to your accounts in{' '}
            {memberships.length === 1 ? memberships[0]!.name : `${memberships.length} workspaces`}. Keys: <kbd>j</kbd>/
            <kbd>k</kbd> next and previous, <kbd>r</kbd> reply, <kbd>e</kbd> mark done.
          </>
        }
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <InboxView
          initialQuery={query}
          initialItem={typeof params.item === 'string' ? params.item : null}
          accounts={accounts}
          actions={{
            answer: answerItemAction,
            presence: presenceAction,
            assign: assignAction,
            done: doneAction,
            note: noteAction,
          }}
        />
      </HydrationBoundary>
    </>
  );
}

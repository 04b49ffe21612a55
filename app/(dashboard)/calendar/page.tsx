import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { z } from 'zod';
import { CalendarBoard } from '@/components/calendar/calendar-board';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { listSnippets } from '@/db/queries/library';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { CALENDAR_VIEWS, defaultAnchor, fetchRange, isCivilDate, zonedParts } from '@/lib/calendar/grid';
import { queryKeys, type CalendarQuery } from '@/lib/query/keys';
import { getServerQueryClient } from '@/lib/query/query-client';
import { calendarFiltersSchema, readCalendar } from '@/lib/reads/calendar';
import { bulkEditAction } from '../bulk-actions';
import { movePostAction } from './actions';

export const metadata = { title: 'Calendar' };

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function CalendarPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { workspace, role } = await requirePageWorkspace();
  const params = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, first(v)]));
  const db = getDb();
  const [settings, accounts, snippets] = await Promise.all([
    getWorkspaceSettings(db, { workspaceId: workspace.id }),
    listAccounts(db, { workspaceId: workspace.id, includeDisconnected: true }),
    listSnippets(db, { workspaceId: workspace.id }),
  ]);
  const workspaceTimeZone = settings?.timeZone ?? 'UTC';
  const view = z.enum(CALENDAR_VIEWS).catch('month').parse(params.view);
  // Without a date the calendar opens on today in the workspace's zone (the server does not know the viewer's),
  // showing this week and the next where one month view can.
  const anchor = isCivilDate(params.date)
    ? params.date
    : defaultAnchor(view, zonedParts(new Date(), workspaceTimeZone).date);
  const filters = calendarFiltersSchema.parse(params);
  const query: CalendarQuery = { ...fetchRange(view, anchor), account: filters.account, status: filters.status };

  const queryClient = getServerQueryClient();
  await queryClient.prefetchQuery({
    queryKey: queryKeys.calendar(workspace.id, query),
    queryFn: async () => {
      const result = await readCalendar(db, { workspaceId: workspace.id, query });
      if (!result.ok) throw new Error('calendar range'); // fetchRange is always a valid range
      return result.data;
    },
  });
  return (
    <>
      <PageHeader title="Calendar" description={`Every post in ${workspace.name}, where and when it goes out.`} />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <CalendarBoard
          workspaceId={workspace.id}
          workspaceTimeZone={workspaceTimeZone}
          view={view}
          anchor={anchor}
          filters={filters}
          accounts={accounts.map((a) => ({ id: a.id, handle: a.handle, displayName: a.displayName }))}
          canEdit={can(role, 'edit')}
          canCompose={can(role, 'compose')}
          moveAction={movePostAction}
          bulk={
            can(role, 'edit')
              ? { action: bulkEditAction, snippets: snippets.map((x) => ({ id: x.id, name: x.name })) }
              : undefined
          }
        />
      </HydrationBoundary>
    </>
  );
}

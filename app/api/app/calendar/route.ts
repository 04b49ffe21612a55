import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';
import { readCalendar } from '@/lib/reads/calendar';

export const dynamic = 'force-dynamic';

/** The calendar's posts: ?from=&to= (ISO, at most 100 days) and optional &account=&status= filters. */
export const GET = appRead('read', async ({ workspace }, _params, request) => {
  const result = await readCalendar(getDb(), {
    workspaceId: workspace.id,
    query: Object.fromEntries(new URL(request.url).searchParams),
  });
  if (result.ok) return result.data;
  return problem({ status: 422, title: 'Unprocessable Content', detail: 'Invalid time range.', errors: result.errors });
});

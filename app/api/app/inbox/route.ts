import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';
import { readInboxList } from '@/lib/reads/inbox';

export const dynamic = 'force-dynamic';

/** The inbox page's list (every workspace of the member), polled for new items. */
export const GET = appRead('read', async ({ memberships, user }, _params, request) => {
  const result = await readInboxList(getDb(), {
    memberships,
    userId: user.id,
    query: Object.fromEntries(new URL(request.url).searchParams),
  });
  return result.kind === 'ok'
    ? result.page
    : problem({ status: 400, title: 'Bad Request', detail: 'Invalid filters.', errors: result.errors });
});

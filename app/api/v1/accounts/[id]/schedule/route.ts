import { getDb } from '@/db/client';
import { apiHandler, json, readJson, validationProblem } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { getAccountSchedule, putAccountSchedule, type AccountScheduleResult } from '@/lib/slots/account-schedule';
import { postingScheduleSchema } from '@/lib/slots/schedule';

export const dynamic = 'force-dynamic';

const respond = (result: AccountScheduleResult) =>
  result.kind === 'ok'
    ? json(result.schedule)
    : problem({ status: 404, title: 'Not Found', detail: 'No such account in this workspace.' });

/** The account's weekly posting slots and its next free ones. */
export const GET = apiHandler<{ id: string }>('accounts:read', async (_request, principal, { id }) =>
  respond(await getAccountSchedule(getDb(), { workspaceId: principal.workspaceId, accountId: id })),
);

/** Replaces the weekly posting slots (idempotent by nature: the same body twice leaves the same schedule). */
export const PUT = apiHandler<{ id: string }>('accounts:write', async (request, principal, { id }) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = postingScheduleSchema.safeParse(body.value);
  if (!parsed.success) return validationProblem(parsed.error);
  return respond(
    await putAccountSchedule(getDb(), { workspaceId: principal.workspaceId, accountId: id, schedule: parsed.data }),
  );
});

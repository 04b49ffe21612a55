import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { accountScheduleSchema } from '@/lib/api/contract/schemas';
import { named, z } from '@/lib/api/contract/zod';
import { postingScheduleSchema } from '@/lib/slots/schedule';

const accountIdParams = z.object({ id: z.uuid().openapi({ description: 'The account id' }) });
const notFound = problemResponse('No such account in this workspace');

/** /api/v1/accounts/{id}/schedule — the contract of ./route.ts. */
export const accountScheduleContract = defineRoute('/accounts/{id}/schedule', {
  GET: {
    operationId: 'getAccountSchedule',
    summary: "An account's weekly posting slots and its next free ones",
    description:
      'Without a schedule yet: no slots, in the workspace’s time zone. `nextFreeSlots` is where `slot: "next"` puts the next posts.',
    scope: 'accounts:read',
    request: { params: accountIdParams },
    responses: { 200: jsonResponse('The schedule', accountScheduleSchema), 404: notFound },
  },
  PUT: {
    operationId: 'putAccountSchedule',
    summary: "Replace an account's weekly posting slots",
    description:
      'Times are wall-clock times in `timeZone` (daylight saving follows the zone). Posts already in a slot keep it.',
    scope: 'accounts:write',
    request: {
      params: accountIdParams,
      body: {
        required: true,
        content: { 'application/json': { schema: named('PostingSchedule', postingScheduleSchema) } },
      },
    },
    responses: {
      200: jsonResponse('The schedule as stored', accountScheduleSchema),
      400: problemResponse('A body that is not JSON (nothing changed)'),
      404: notFound,
      422: problemResponse('Invalid fields: an unknown zone, a bad weekday or time, a slot listed twice (`errors`)'),
    },
  },
});

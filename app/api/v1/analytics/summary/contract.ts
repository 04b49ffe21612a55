import { analyticsSummarySchema } from '@/lib/api/contract/analytics-schemas';
import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { summaryQuerySchema } from '@/lib/analytics/api-query';

/** /api/v1/analytics/summary — the contract of ./route.ts. */
export const analyticsSummaryContract = defineRoute('/analytics/summary', {
  GET: {
    operationId: 'getAnalyticsSummary',
    summary:
      'How the posts published in a period did: totals, the change against the previous period, followers, per network',
    description:
      'Aggregated from the latest reading of each sent delivery published in `[from, to)` (at most 100 days). Followers are the accounts’ latest counts on the period’s last day of the workspace’s zone.',
    scope: 'posts:read',
    request: { query: summaryQuerySchema },
    responses: {
      200: jsonResponse('The summary', analyticsSummarySchema),
      422: problemResponse(
        'Missing or invalid `from`/`to`, a range over 100 days, or `accountIds` that are not this workspace’s (nothing read)',
      ),
    },
  },
});

import { defineRoute, jsonResponse } from '@/lib/api/contract/define';
import { accountListSchema } from '@/lib/api/contract/schemas';

/** /api/v1/accounts — the contract of ./route.ts. */
export const accountsContract = defineRoute('/accounts', {
  GET: {
    operationId: 'listAccounts',
    summary: 'Social accounts of the workspace (connected ones), with their ids',
    scope: 'accounts:read',
    responses: { 200: jsonResponse('Accounts', accountListSchema) },
  },
});

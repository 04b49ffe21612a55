import type { ConnectAccountResult } from '@/lib/accounts/connect-account';
import { keyProblem, storedResponse } from '@/lib/http/idempotent-response';
import { problem } from '@/lib/http/problem';

export const accountNotFound = () =>
  problem({ status: 404, title: 'Not Found', detail: 'No connected account with this id in this workspace.' });

/** The connect use case's result as HTTP: the stored answer byte for byte (a replay differs only by its marker). */
export function connectAccountResponse(result: ConnectAccountResult): Response {
  switch (result.kind) {
    case 'ok':
      return storedResponse(result, `/api/v1/accounts/${result.accountId}`);
    case 'check_failed':
      // The class of failure only (lib/providers/connection-check.ts): never the platform's own text.
      return problem({
        status: 422,
        title: 'Connection check failed',
        detail: `${result.message} Nothing was stored.`,
        errors: { _: [result.message] },
      });
    default:
      return keyProblem(result);
  }
}

import { createHmac } from 'node:crypto';
import type { Database } from '@/db/client';
import { connectAccount } from '@/db/queries/accounts';
import { notifyDue } from '@/db/queries/publishing';
import { canonicalJson } from '@/lib/idempotency/fingerprint';
import { runIdempotentPrepared } from '@/lib/idempotency/run-idempotent';
import { settleIdempotent, type KeyRefusal } from '@/lib/idempotency/settle';
import { logger } from '@/lib/logging/logger';
import { verifyAccount, type ProviderTransport } from '@/lib/providers';
import { sealCredentials } from '@/lib/providers/credentials';
import type { VerifyResult } from '@/lib/providers/definition';
import { connectInput, type ConnectAccountRequest } from './connect-request';
import { serializeAccount } from './serialize';

export const CONNECT_ACCOUNT_OPERATION = 'accounts.connect';
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** Outlasts the connection check (10 s per call, two calls for Mastodon): a retry meanwhile is a 409, not a second check. */
const CONNECT_LEASE_MS = 60_000;

export type ConnectAccountContext = {
  workspaceId: string;
  idempotencyKey: string;
  /** `api_key:<id>`. */
  actor: string;
  encryptionKey: string;
  requestId?: string;
  /** Tests route the platform calls in-process; production uses the outbound-guarded transport. */
  transport?: ProviderTransport;
};

export type ConnectAccountResult =
  | { kind: 'ok'; accountId: string; replayed: boolean; stored: { status: number; body: string } }
  | { kind: 'check_failed'; message: string }
  | KeyRefusal;

/**
 * The request's fingerprint, keyed: it covers the token or app password (a new secret is a new request), and a
 * keyed hash stored in the database cannot be tested against guessed passwords without APP_ENCRYPTION_KEY.
 */
function connectFingerprint(request: ConnectAccountRequest, encryptionKey: string): string {
  const key = createHmac('sha256', Buffer.from(encryptionKey, 'base64'))
    .update('semel:connect-fingerprint:v1')
    .digest();
  return createHmac('sha256', key).update(canonicalJson(request)).digest('hex');
}

/**
 * Connects an account from the API with the Accounts page's checks, exactly once per Idempotency-Key
 * (docs/architecture.md#inbound-idempotency): the fields were validated before (not stored); under the held key the
 * network's connection check runs (outbound guard, "who am I"; a failure is not stored and frees the key), then the
 * account row with its sealed credentials and the stored answer commit together. The same platform account in one
 * workspace is one row (`social_accounts_workspace_platform_uq`): connecting it again reconnects it.
 */
export async function connectAccountFromApi(
  db: Database,
  request: ConnectAccountRequest,
  context: ConnectAccountContext,
): Promise<ConnectAccountResult> {
  const { provider } = request;
  const outcome = await runIdempotentPrepared<Extract<VerifyResult, { ok: true }>, { message: string }>(
    db,
    {
      workspaceId: context.workspaceId,
      operation: CONNECT_ACCOUNT_OPERATION,
      key: context.idempotencyKey,
      fingerprint: connectFingerprint(request, context.encryptionKey),
    },
    {
      prepare: async () => {
        const check = await verifyAccount(provider, connectInput(request), { transport: context.transport });
        return check.ok ? { ok: true, value: check } : { ok: false, rejection: { message: check.message } };
      },
      operation: async (tx, check) => {
        const account = await connectAccount(
          tx,
          { workspaceId: context.workspaceId, provider, sandbox: false, baseUrl: check.baseUrl, ...check.identity },
          (id) => sealCredentials(check.credentials, context.encryptionKey, id),
        );
        // A reconnect frees deliveries held for a bad token: wake the schedulers (delivered on commit).
        await notifyDue(tx);
        return {
          store: true,
          status: 201,
          body: JSON.stringify(serializeAccount(account)),
          resourceId: account.id,
          retainUntil: new Date(Date.now() + RETENTION_MS),
        };
      },
    },
    { leaseMs: CONNECT_LEASE_MS },
  );
  return settleIdempotent(outcome, {
    answered: ({ status, body, resourceId }, replayed): ConnectAccountResult => {
      if (!replayed)
        logger.info(
          { requestId: context.requestId, workspaceId: context.workspaceId, accountId: resourceId, provider },
          'account connected through the API',
        );
      return { kind: 'ok', accountId: resourceId!, replayed, stored: { status, body } };
    },
    rejected: (rejection): ConnectAccountResult => ({ kind: 'check_failed', message: rejection.message }),
  });
}

import { z } from 'zod';
import { baseUrlRefusal } from '@/lib/net/outbound-guard';
import { httpUrl } from '../connect-fields';
import { connectionCheckFailure } from '../connection-check';
import type { ConnectTools, ProviderDefinition, RefreshResult, ResolvedAccount, VerifyResult } from '../definition';
import type { ProviderClient } from '../types';
import type { ProviderTransport } from '../transport';
import { BLUESKY_RULES } from './classifier';
import { createBlueskyClient, type BlueskyClient } from './client';
import { blueskyMeta } from './meta';
import type { SessionResult } from './session';

const CONNECT_TIMEOUT_MS = 10_000;

/** The connect form's fields (also POST /api/v1/accounts's, so both check the same way). */
export const blueskyConnectFields = {
  serviceUrl: httpUrl('PDS URL'),
  identifier: z
    .string()
    .trim()
    .transform((v) => v.replace(/^@/, ''))
    .pipe(
      z
        .string()
        .min(3, 'Your handle (name.bsky.social), DID or email')
        .max(253, 'Your handle (name.bsky.social), DID or email')
        .regex(/^\S+$/, 'Your handle (name.bsky.social), DID or email, without spaces'),
    ),
  appPassword: z
    .string()
    .trim()
    .min(8, 'Paste the whole app password (Settings → Privacy and security → App passwords)')
    .max(200),
};

export const blueskyProvider = {
  ...blueskyMeta,
  // Bluesky's documented write limits per account: 5,000 points an hour and 35,000 a day, a created record
  // costing 3 (https://docs.bsky.app/docs/advanced-guides/rate-limits). 450 posts an hour stays under both
  // (10,800 a day < 11,666), leaving room for deletes and for posts made in the Bluesky app.
  rateLimit: { max: 450, windowSeconds: 60 * 60 },
  connectSchema: z.object(blueskyConnectFields),
  verify: verifyBluesky,
  createClient: (account, send) => createBlueskyClient(account, send),
  rules: BLUESKY_RULES,
  reconcile: 'record-key',
  isDuplicateEvidence: (c) => c.rule === 'bluesky-record-exists',
  oauth: null,
  refresh: refreshBluesky,
} satisfies ProviderDefinition;

function isBlueskyClient(client: ProviderClient): client is BlueskyClient {
  return 'createSession' in client && typeof client.createSession === 'function';
}

/** The connection check: a session opened with the app password names the account (its DID and handle). */
async function verifyBluesky(input: Record<string, string>, tools: ConnectTools): Promise<VerifyResult> {
  const client = tools.client({ baseUrl: input.serviceUrl!, credentials: { accessToken: '' } });
  if (!isBlueskyClient(client)) throw new Error('The Bluesky entry made a client without sessions');
  const session = await client.createSession(input.identifier!, input.appPassword!, { timeoutMs: CONNECT_TIMEOUT_MS });
  if (!session.ok) return { ok: false, message: sessionFailure(session) };
  if (!session.active)
    return {
      ok: false,
      message: `Connection check failed: the account is not active (${session.status ?? 'deactivated'}).`,
    };
  // Opened through an entryway (bsky.social): later calls go to the account's own PDS, as the official client does.
  const pds = session.pdsUrl && !baseUrlRefusal(session.pdsUrl) ? session.pdsUrl : input.serviceUrl!;
  return {
    ok: true,
    identity: { platformUserId: session.did, handle: `@${session.handle}`, displayName: null },
    baseUrl: pds,
    credentials: session.credentials,
  };
}

function sessionFailure(session: Extract<SessionResult, { ok: false }>): string {
  if (session.httpStatus === 401)
    return 'Connection check failed: the PDS did not accept this handle and app password (401).';
  if (session.refused) return `Connection check failed: the PDS refused the sign-in (${session.httpStatus}).`;
  const { rule, reason, httpStatus } = session;
  return connectionCheckFailure({ ok: false, outcome: 'failed', rule, reason, httpStatus });
}

/**
 * Renews the session: refreshSession with the refresh JWT, and when the PDS refuses that (expired, revoked),
 * a new session with the app password. `rejected` only when the PDS turns down the app password itself.
 */
async function refreshBluesky(account: ResolvedAccount, send?: ProviderTransport): Promise<RefreshResult> {
  const client = createBlueskyClient(account, send);
  const { refreshToken, identifier, appPassword } = account.credentials;
  if (refreshToken) {
    const renewed = await client.refreshSession(refreshToken, { timeoutMs: CONNECT_TIMEOUT_MS });
    if (renewed.ok) return { ok: true, credentials: renewed.credentials };
    if (!renewed.refused) return { ok: false, rejected: false, reason: renewed.reason };
  }
  if (!identifier || !appPassword)
    return {
      ok: false,
      rejected: true,
      reason: 'The session expired and no app password is stored: reconnect the account.',
    };
  const opened = await client.createSession(identifier, appPassword, { timeoutMs: CONNECT_TIMEOUT_MS });
  if (opened.ok) return { ok: true, credentials: opened.credentials };
  return { ok: false, rejected: opened.refused, reason: opened.reason };
}

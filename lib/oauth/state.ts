import { randomUUID } from 'node:crypto';
import type { Executor } from '@/db/client';
import {
  consumeOAuthState,
  deleteStaleOAuthStates,
  getOAuthStateByHash,
  insertOAuthState,
} from '@/db/queries/oauth-states';
import type { OAuthState } from '@/db/schema';
import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';
import type { ProviderName } from '@/lib/providers/types';
import { codeChallengeOf, hashState, newCodeVerifier, newState } from './pkce';

export const STATE_TTL_MS = 10 * 60_000;

/**
 * Starts one connect: a state bound to this admin, workspace and network (stored hashed, single use, ten
 * minutes) and a PKCE verifier sealed to the state's row. The state and challenge go into the authorize URL.
 */
export async function createOAuthState(
  db: Executor,
  params: {
    workspaceId: string;
    userId: string;
    provider: ProviderName;
    sandbox: boolean;
    redirectUri: string;
    encryptionKey: string;
    ttlMs?: number;
  },
): Promise<{ state: string; codeChallenge: string }> {
  await deleteStaleOAuthStates(db);
  const id = randomUUID();
  const state = newState();
  const verifier = newCodeVerifier();
  await insertOAuthState(db, {
    id,
    stateHash: hashState(state),
    workspaceId: params.workspaceId,
    userId: params.userId,
    provider: params.provider,
    sandbox: params.sandbox,
    redirectUri: params.redirectUri,
    codeVerifierSealed: encryptSecret(verifier, params.encryptionKey, id),
    expiresAt: new Date(Date.now() + (params.ttlMs ?? STATE_TTL_MS)),
  });
  return { state, codeChallenge: codeChallengeOf(verifier) };
}

export type StateRefusal =
  'unknown_state' | 'state_used' | 'state_expired' | 'other_user' | 'other_workspace' | 'other_network';

/**
 * The callback's check: the state must be this admin's, in the active workspace, for this network, unused and
 * unexpired, and it is used up in the same statement. A refused state is left as it was.
 */
export async function redeemOAuthState(
  db: Executor,
  params: { state: string; userId: string; workspaceId: string; provider: ProviderName; encryptionKey: string },
): Promise<{ ok: true; row: OAuthState; codeVerifier: string } | { ok: false; reason: StateRefusal }> {
  const stateHash = hashState(params.state);
  const row = await consumeOAuthState(db, { ...params, stateHash });
  if (row) return { ok: true, row, codeVerifier: decryptSecret(row.codeVerifierSealed, params.encryptionKey, row.id) };
  const seen = await getOAuthStateByHash(db, { stateHash });
  const reason: StateRefusal = !seen
    ? 'unknown_state'
    : seen.userId !== params.userId
      ? 'other_user'
      : seen.workspaceId !== params.workspaceId
        ? 'other_workspace'
        : seen.provider !== params.provider
          ? 'other_network'
          : seen.usedAt
            ? 'state_used'
            : 'state_expired';
  return { ok: false, reason };
}

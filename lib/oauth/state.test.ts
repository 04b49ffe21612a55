import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthStates } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { codeChallengeOf, hashState } from './pkce';
import { createOAuthState, redeemOAuthState } from './state';

const { db } = await createTestDatabase({ max: 20 });

async function started() {
  const workspace = await makeWorkspace(db);
  const user = await makeUser(db);
  const { state, codeChallenge } = await createOAuthState(db, {
    workspaceId: workspace.id,
    userId: user.id,
    provider: 'x',
    sandbox: true,
    redirectUri: 'http://127.0.0.1:1/api/oauth/x/callback',
    encryptionKey: TEST_ENCRYPTION_KEY,
  });
  const use = (over: Partial<{ userId: string; workspaceId: string; provider: 'x' | 'linkedin' }> = {}) =>
    redeemOAuthState(db, {
      state,
      userId: user.id,
      workspaceId: workspace.id,
      provider: 'x',
      encryptionKey: TEST_ENCRYPTION_KEY,
      ...over,
    });
  return { state, codeChallenge, workspace, user, use };
}

describe('OAuth state: bound to the admin, the workspace and the network; single use; ten minutes', () => {
  it('stores only the state’s hash and a sealed verifier; the callback gets the verifier of the challenge sent', async () => {
    const { state, codeChallenge, use } = await started();
    const [row] = await db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, hashState(state)));
    expect(row!.codeVerifierSealed).toMatch(/^v2\./);
    expect(JSON.stringify(row)).not.toContain(state);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(9.9 * 60_000);
    const used = await use();
    expect(used.ok).toBe(true);
    if (used.ok) expect(codeChallengeOf(used.codeVerifier)).toBe(codeChallenge);
  });

  it('a reused state is refused', async () => {
    const { use } = await started();
    expect((await use()).ok).toBe(true);
    expect(await use()).toEqual({ ok: false, reason: 'state_used' });
  });

  it('an expired state is refused', async () => {
    const { state, use } = await started();
    await db
      .update(oauthStates)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(oauthStates.stateHash, hashState(state)));
    expect(await use()).toEqual({ ok: false, reason: 'state_expired' });
  });

  it('another user’s state is refused, and stays usable by its owner', async () => {
    const { use } = await started();
    const intruder = await makeUser(db);
    expect(await use({ userId: intruder.id })).toEqual({ ok: false, reason: 'other_user' });
    expect((await use()).ok).toBe(true);
  });

  it('a state used in another workspace (or for another network) is refused', async () => {
    const { use } = await started();
    const other = await makeWorkspace(db);
    expect(await use({ workspaceId: other.id })).toEqual({ ok: false, reason: 'other_workspace' });
    expect(await use({ provider: 'linkedin' })).toEqual({ ok: false, reason: 'other_network' });
    expect((await use()).ok).toBe(true);
  });

  it('an unknown state is refused', async () => {
    const { user, workspace } = await started();
    const unknown = await redeemOAuthState(db, {
      state: 'not-a-state',
      userId: user.id,
      workspaceId: workspace.id,
      provider: 'x',
      encryptionKey: TEST_ENCRYPTION_KEY,
    });
    expect(unknown).toEqual({ ok: false, reason: 'unknown_state' });
  });

  it('twenty concurrent callbacks with one state: exactly one proceeds', async () => {
    const { use } = await started();
    const results = await Promise.all(Array.from({ length: 20 }, () => use()));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual(Array(19).fill('state_used'));
  });
});

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import type { WorkspaceContext } from '@/lib/auth/session';
import type { Role } from '@/db/queries/workspaces';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { makeAccount, makeUser } from '@/testing/db/factories';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { startTestSandbox } from '@/testing/sandbox';

// The composer's read of what an account allows as options (TikTok's creator_info), called as Next calls it: only
// the cookie's session lookup is replaced; the database, the handler, the real client and the sandbox are real.
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context }));

const sandbox = await startTestSandbox();
const { db } = sandbox;
process.env.DATABASE_URL = lastTestDatabaseUrl();
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.PORT = new URL(sandbox.url).port; // the sandbox accounts' relative base URL resolves here
const { GET } = await import('./route');

type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;
let ours: Account;
let theirs: Account;
const read = (accountId: string) =>
  GET(new Request(`http://localhost/api/app/accounts/${accountId}/post-options`), {
    params: Promise.resolve({ id: accountId }),
  });

async function signIn(role: Role) {
  const user = await makeUser(db);
  await addMembership(db, { workspaceId: ours.workspaceId, userId: user.id, role });
  context = {
    user: { id: user.id, email: user.email, name: user.name },
    workspace: { id: ours.workspaceId, slug: 'ours', name: 'ours' },
    role,
    memberships: [],
  };
}

beforeAll(async () => {
  ours = await sandbox.connectAccount('tiktok');
  theirs = await sandbox.connectAccount('tiktok');
});

describe('GET /api/app/accounts/:id/post-options', () => {
  it('a TikTok account: the creator’s privacy levels and interactions as TikTok answers them now', async () => {
    await signIn('manager');
    const res = await read(ours.productAccountId);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      accountId: ours.productAccountId,
      provider: 'tiktok',
      info: {
        privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
        duetDisabled: false,
        maxDurationSec: 600,
      },
    });
    expect(JSON.stringify(body)).not.toContain(ours.token);
    // The creator made the account private: the next read offers no public level and no Duet or Stitch.
    await sandbox.setFaults(ours.sandboxAccount.id, { profile: 'tiktok-private' });
    expect((await (await read(ours.productAccountId)).json()).info).toMatchObject({
      privacyLevels: ['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      duetDisabled: true,
      stitchDisabled: true,
    });
  });

  it('another workspace’s account is a 404 (I6); a network without options answers info: null', async () => {
    await signIn('manager');
    expect((await read(theirs.productAccountId)).status).toBe(404);
    expect((await read('not-an-id')).status).toBe(404);
    const x = await makeAccount(db, ours.workspaceId);
    expect(await (await read(x.id)).json()).toEqual({ accountId: x.id, provider: 'x', info: null });
  });

  it('TikTok unreadable: a 502 naming why, never a 500', async () => {
    await signIn('manager');
    await sandbox.setFaults(ours.sandboxAccount.id, { listingUnavailable: 1 });
    const res = await read(ours.productAccountId);
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toMatch(/Could not read the TikTok creator’s options/);
    await sandbox.setFaults(ours.sandboxAccount.id, {});
  });

  it('a viewer cannot compose: 403; signed out: 401', async () => {
    await signIn('viewer');
    expect((await read(ours.productAccountId)).status).toBe(403);
    context = null;
    expect((await read(ours.productAccountId)).status).toBe(401);
  });
});

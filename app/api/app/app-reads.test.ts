import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setWorkspaceRequireTwoFactor } from '@/db/queries/two-factor';
import { addMembership } from '@/db/queries/workspaces';
import { makeAccount, makeDelivery, makePost, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import type { WorkspaceContext } from '@/lib/auth/session';

// The dashboard's GET reads, called the way Next calls a route handler; only the cookie's session lookup is
// replaced (there is no request cookie here); the database and the handlers are real.
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context }));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
const accountsRoute = await import('./accounts/route');
const queueRoute = await import('./queue/route');
const postRoute = await import('./posts/[id]/route');

const noParams = { params: Promise.resolve({}) } as { params: Promise<Record<string, never>> };
const get = (url: string) => new Request(`http://localhost${url}`);

let ours = { workspaceId: '', postId: '', accountId: '' };
let theirs = { workspaceId: '', postId: '', accountId: '' };

async function seed() {
  const workspace = await makeWorkspace(db);
  const account = await makeAccount(db, workspace.id);
  const post = await makePost(db, workspace.id);
  await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
  return { workspaceId: workspace.id, postId: post.id, accountId: account.id };
}

beforeAll(async () => {
  ours = await seed();
  theirs = await seed();
  const user = await makeUser(db);
  await addMembership(db, { workspaceId: ours.workspaceId, userId: user.id, role: 'viewer' });
  context = {
    user: { id: user.id, email: user.email, name: user.name },
    workspace: { id: ours.workspaceId, slug: 'ours', name: 'ours' },
    role: 'viewer',
    memberships: [],
  };
});

function signedOut<T>(run: () => Promise<T>): Promise<T> {
  const saved = context;
  context = null;
  return run().finally(() => {
    context = saved;
  });
}

describe('dashboard reads are GET route handlers: session, workspace scope, JSON', () => {
  it('signed out → 401 problem+json from every read', async () => {
    for (const response of await signedOut(() =>
      Promise.all([
        accountsRoute.GET(get('/api/app/accounts'), noParams),
        queueRoute.GET(get('/api/app/queue'), noParams),
        postRoute.GET(get(`/api/app/posts/${ours.postId}`), { params: Promise.resolve({ id: ours.postId }) }),
      ]),
    )) {
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it("accounts: only the active workspace's, public columns only (no sealed credentials), never cached", async () => {
    const response = await accountsRoute.GET(get('/api/app/accounts'), noParams);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const body = (await response.json()) as Record<string, unknown>[];
    expect(body.map((a) => a.id)).toEqual([ours.accountId]);
    expect(body[0]).not.toHaveProperty('credentialsEncrypted');
    expect(body[0]).toMatchObject({ tokenLast4: 'abcd', disconnectedAt: null });
    expect(typeof body[0]!.createdAt).toBe('string');
  });

  it("queue: only the active workspace's posts, each with its deliveries", async () => {
    const body = (await (await queueRoute.GET(get('/api/app/queue'), noParams)).json()) as {
      id: string;
      deliveries: { handle: string }[];
    }[];
    expect(body.map((p) => p.id)).toEqual([ours.postId]);
    expect(body[0]!.deliveries).toHaveLength(1);
    expect(body[0]!.deliveries[0]!.handle).toBe('@t');
  });

  it("post detail: ours → 200; another workspace's or a malformed id → 404, like a missing one (I6)", async () => {
    const read = (id: string) => postRoute.GET(get(`/api/app/posts/${id}`), { params: Promise.resolve({ id }) });
    const mine = await read(ours.postId);
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { id: string }).id).toBe(ours.postId);
    expect((await read(theirs.postId)).status).toBe(404);
    expect((await read('not-a-uuid')).status).toBe(404);
  });
});

describe('a workspace that requires two-factor sign-in', () => {
  it('a member without a second factor → 403 problem+json from the reads, until the rule is lifted', async () => {
    await setWorkspaceRequireTwoFactor(db, { workspaceId: ours.workspaceId, required: true });
    try {
      const response = await queueRoute.GET(get('/api/app/queue'), noParams);
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/problem\+json/);
      expect((await response.json()).detail).toMatch(/requires two-factor sign-in/);
    } finally {
      await setWorkspaceRequireTwoFactor(db, { workspaceId: ours.workspaceId, required: false });
    }
    expect((await queueRoute.GET(get('/api/app/queue'), noParams)).status).toBe(200);
  });
});

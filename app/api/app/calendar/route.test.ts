import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { makeAccount, makeDelivery, makePost, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import type { WorkspaceContext } from '@/lib/auth/session';
import type { CalendarData } from '@/lib/reads/calendar';

// The calendar's GET read, called the way Next calls a route handler; only the cookie's session lookup is
// replaced. The database and the handler are real.
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context }));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
const { GET } = await import('./route');

const noParams = { params: Promise.resolve({}) } as { params: Promise<Record<string, never>> };
const read = (query: string) => GET(new Request(`http://localhost/api/app/calendar?${query}`), noParams);

// makePost schedules at "now": a range around now holds every post made here.
const around = () =>
  new URLSearchParams({
    from: new Date(Date.now() - 86_400_000).toISOString(),
    to: new Date(Date.now() + 86_400_000).toISOString(),
  }).toString();

const seeded = { ours: '', theirs: '', ourAccount: '' };

beforeAll(async () => {
  for (const side of ['ours', 'theirs'] as const) {
    const workspace = await makeWorkspace(db);
    const account = await makeAccount(db, workspace.id);
    const post = await makePost(db, workspace.id);
    await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
    seeded[side] = post.id;
    if (side === 'ours') {
      seeded.ourAccount = account.id;
      const user = await makeUser(db);
      await addMembership(db, { workspaceId: workspace.id, userId: user.id, role: 'viewer' });
      context = {
        user: { id: user.id, email: user.email, name: user.name },
        workspace: { id: workspace.id, slug: 'ours', name: 'ours' },
        role: 'viewer',
        memberships: [],
      };
    }
  }
});

describe('GET /api/app/calendar — the calendar page reads its range', () => {
  it("I6 — tenancy: a viewer reads the active workspace's posts in the range with their accounts, never another's", async () => {
    const response = await read(around());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const body = (await response.json()) as CalendarData;
    expect(body.truncated).toBe(false);
    expect(body.posts.map((p) => p.id)).toEqual([seeded.ours]);
    expect(body.posts[0]!.deliveries).toEqual([
      expect.objectContaining({ accountId: seeded.ourAccount, handle: '@t', provider: 'x', status: 'scheduled' }),
    ]);
    expect(body.posts[0]).not.toHaveProperty('workspaceId');
  });

  it('a missing, half or oversized range is a 422 problem; an unknown filter value is ignored', async () => {
    for (const query of [
      '',
      `from=${encodeURIComponent(new Date().toISOString())}`,
      'from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z',
    ]) {
      const response = await read(query);
      expect(response.status, query).toBe(422);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
    const filtered = await read(`${around()}&status=bogus&account=not-a-uuid`);
    expect(filtered.status).toBe(200);
    expect(((await filtered.json()) as CalendarData).posts.map((p) => p.id)).toEqual([seeded.ours]);
  });

  it('signed out → 401', async () => {
    const saved = context;
    context = null;
    try {
      expect((await read(around())).status).toBe(401);
    } finally {
      context = saved;
    }
  });
});

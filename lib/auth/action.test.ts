import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { posts } from '@/db/schema';
import { makeAccount, makeUser, makeWorkspace } from '@/db/testing/factories';
import { createTestDatabase } from '@/db/testing/test-database';
import type { WorkspaceContext } from './session';

// Server actions are called here the way Next.js calls them, minus the cookie: the session lookup is the
// one thing replaced (there is no request); the database and everything after the wrapper are real.
let context: WorkspaceContext | null = null;
vi.mock('./session', () => ({ getWorkspace: async () => context }));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
const { createPostAction } = await import('@/app/(dashboard)/compose/actions');
const { renameWorkspaceAction } = await import('@/app/(dashboard)/settings/actions');

let accountId = '';
beforeAll(async () => {
  const workspace = await makeWorkspace(db);
  const user = await makeUser(db);
  await addMembership(db, { workspaceId: workspace.id, userId: user.id, role: 'admin' });
  accountId = (await makeAccount(db, workspace.id)).id;
  context = {
    user: { id: user.id, email: user.email, name: user.name },
    workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
    role: 'admin',
    memberships: [],
  };
});

const postCount = async () =>
  (await db.select({ n: count() }).from(posts).where(eq(posts.workspaceId, context!.workspace.id)))[0]!.n;

function composeForm(text: string) {
  const form = new FormData();
  form.set('idempotencyKey', randomUUID());
  form.set('text', text);
  form.append('accountIds', accountId);
  form.set('when', 'now');
  form.set('timeZone', 'UTC');
  return form;
}

describe('server action wrapper: bad input is a 4xx result, never a crash, and writes nothing', () => {
  it.each([
    ['a plain object', { text: 'hello', accountIds: [] }],
    ['a string', 'text=hello'],
    ['null', null],
    ['an array', [['text', 'hello']]],
  ])('an argument that is not FormData (%s) → 400', async (_name, argument) => {
    const before = await postCount();
    const result = await createPostAction(undefined, argument as unknown as FormData);
    expect(result).toMatchObject({ ok: false, status: 400 });
    expect(await postCount()).toBe(before);
  });

  it("a NUL character in the compose form's text → 422 with a field error on text, nothing written", async () => {
    const before = await postCount();
    const result = await createPostAction(undefined, composeForm('hello\u0000world'));
    expect(result).toMatchObject({ ok: false, status: 422 });
    expect(result.errors?.text?.[0]).toMatch(/NUL/);
    expect(await postCount()).toBe(before);
  });

  it("a NUL character in any other action's field is refused the same way", async () => {
    const form = new FormData();
    form.set('name', 'Agency\u0000');
    const result = await renameWorkspaceAction(undefined, form);
    expect(result).toMatchObject({ ok: false, status: 422 });
    expect(result.errors?.name?.[0]).toMatch(/NUL/);
  });

  it('signed out still answers 401 first', async () => {
    const saved = context;
    context = null;
    try {
      expect(await createPostAction(undefined, {} as FormData)).toMatchObject({ ok: false, status: 401 });
    } finally {
      context = saved;
    }
  });
});

import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { deleteTotp, enableTotp, savePendingTotp, setWorkspaceRequireTwoFactor } from '@/db/queries/two-factor';
import { addMembership } from '@/db/queries/workspaces';
import { posts, workspaces } from '@/db/schema';
import { makeAccount, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import type { WorkspaceContext } from './session';

// Server actions are called here the way Next.js calls them, minus the cookie: the session lookup is the
// one thing replaced (there is no request); the database and everything after the wrapper are real.
let context: WorkspaceContext | null = null;
vi.mock('./session', () => ({ getWorkspace: async () => context }));
// No request to revalidate in: the one framework call a successful action makes after writing.
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

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

describe('a workspace that requires two-factor sign-in: its members act only once enrolled', () => {
  const renameForm = (name: string) => {
    const form = new FormData();
    form.set('name', name);
    return form;
  };
  const workspaceName = async () =>
    (await db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, context!.workspace.id)))[0]!
      .name;

  it('a member without a second factor is refused (403), writes nothing, and acts once enrolled', async () => {
    const saved = context!;
    await setWorkspaceRequireTwoFactor(db, { workspaceId: saved.workspace.id, required: true });
    try {
      const before = await postCount();
      const refused = await createPostAction(undefined, composeForm('before enrolling'));
      expect(refused).toMatchObject({ ok: false, status: 403 });
      expect(refused.message).toMatch(/requires two-factor sign-in/);
      expect(await postCount()).toBe(before);
      const nameBefore = await workspaceName();
      expect(await renameWorkspaceAction(undefined, renameForm('Renamed before enrolling'))).toMatchObject({
        ok: false,
        status: 403,
      });
      expect(await workspaceName()).toBe(nameBefore);

      // Enrolled (a TOTP factor enabled): the same member's action goes through.
      await savePendingTotp(db, { userId: saved.user.id, secretSealed: 'sealed-for-this-test' });
      expect(await enableTotp(db, { userId: saved.user.id, step: 1, codeHashes: ['hash-of-a-code'] })).toBe(true);
      expect(await renameWorkspaceAction(undefined, renameForm('Renamed once enrolled'))).toMatchObject({ ok: true });
      expect(await workspaceName()).toBe('Renamed once enrolled');
    } finally {
      await setWorkspaceRequireTwoFactor(db, { workspaceId: saved.workspace.id, required: false });
      await deleteTotp(db, { userId: saved.user.id });
    }
  });
});

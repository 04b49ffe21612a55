import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSession } from '@/db/queries/sessions';
import { sessions } from '@/db/schema';
import { makeUser } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';

// The Security actions as Next calls them; only the cookie's session lookup (and the page cache) is replaced.
let signedIn: { user: { id: string; email: string; name: string }; sessionId: string } | null = null;
vi.mock('@/lib/auth/session', () => ({
  getUser: async () => signedIn?.user ?? null,
  getSession: async () => (signedIn ? { sessionId: signedIn.sessionId } : null),
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
const { signOutOtherSessionsAction, signOutSessionAction } = await import('./actions');

const open = (userId: string) =>
  createSession(db, { userId, sessionVersion: 1, userAgent: null, address: '192.0.2.4', maxDays: 30 });
const idsOf = async (userId: string) =>
  (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).map((r) => r.id).sort();
const form = (sessionId: string) => {
  const data = new FormData();
  data.set('sessionId', sessionId);
  return data;
};

let me = { id: '', email: '', name: '' };
let other = { id: '', email: '', name: '' };
beforeAll(async () => {
  const [a, b] = [await makeUser(db), await makeUser(db)];
  me = { id: a.id, email: a.email, name: a.name };
  other = { id: b.id, email: b.email, name: b.name };
});

describe('Settings → Security: only ever the caller’s own sessions', () => {
  it('signed out: 401, nothing deleted', async () => {
    const theirs = await open(other.id);
    signedIn = null;
    expect(await signOutSessionAction(undefined, form(theirs))).toMatchObject({ ok: false, status: 401 });
    expect(await signOutOtherSessionsAction()).toMatchObject({ ok: false, status: 401 });
    expect(await idsOf(other.id)).toContain(theirs);
  });

  it('"Sign out" on one session ends it; another user’s session id is refused (404) and kept', async () => {
    const [here, phone] = [await open(me.id), await open(me.id)];
    const theirs = await open(other.id);
    signedIn = { user: me, sessionId: here };

    expect(await signOutSessionAction(undefined, form(theirs))).toMatchObject({ ok: false, status: 404 });
    expect(await idsOf(other.id)).toContain(theirs);
    expect(await signOutSessionAction(undefined, form('not-a-uuid'))).toMatchObject({ ok: false, status: 422 });

    expect(await signOutSessionAction(undefined, form(phone))).toMatchObject({ ok: true });
    const mine = await idsOf(me.id);
    expect(mine).toContain(here);
    expect(mine).not.toContain(phone);
  });

  it('"Sign out everywhere else" keeps this device and touches no one else', async () => {
    const [here, laptop, tablet] = [await open(me.id), await open(me.id), await open(me.id)];
    const before = await idsOf(other.id);
    expect(await idsOf(me.id)).toEqual(expect.arrayContaining([here, laptop, tablet]));
    signedIn = { user: me, sessionId: here };
    expect(await signOutOtherSessionsAction()).toMatchObject({ ok: true });
    expect(await idsOf(me.id)).toEqual([here]);
    expect(await idsOf(other.id)).toEqual(before);
  });
});

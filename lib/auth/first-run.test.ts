import { count, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { setupOpen } from '@/db/queries/first-run';
import { installation, memberships, setupTokens, users, workspaces } from '@/db/schema';
import { makeUser } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { holdLock } from '@/testing/race';
import { issueSetupToken, runSetup, type SetupInput } from './first-run';
import { verifyPassword } from './password';
import { setPasswordWithToken } from './password-reset';
import { setupCommand } from './setup-cli';

// A fresh database per scenario: setup happens once per database.
const [once, race, refused, headless, seeded, action] = await Promise.all(
  Array.from({ length: 6 }, () => createTestDatabase({ max: 6 })),
);
// The server action reads the app's pool (getDb): it gets its own database.
process.env.DATABASE_URL = action!.url;
const { setupAction } = await import('@/app/setup/actions');

const PASSWORD = 'violet kettle harbour 42';
const input = (email = 'admin@acme.test'): SetupInput & { password: string } => ({
  name: 'Ada Admin',
  email,
  workspaceName: 'Acme',
  slug: 'acme',
  timeZone: 'Europe/Berlin',
  password: PASSWORD,
});

async function counts(db: Database) {
  const n = async (table: typeof users | typeof workspaces | typeof memberships | typeof installation) =>
    (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    users: await n(users),
    workspaces: await n(workspaces),
    memberships: await n(memberships),
    installation: await n(installation),
  };
}
const NOTHING = { users: 0, workspaces: 0, memberships: 0, installation: 0 };
const ONE_EACH = { users: 1, workspaces: 1, memberships: 1, installation: 1 };

describe('first run: /setup with the printed token, exactly once', () => {
  it('creates the admin (admin of the workspace) and the workspace, then closes for good', async () => {
    const { db } = once!;
    expect(await setupOpen(db)).toBe(true);
    const token = (await issueSetupToken(db))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await db.select().from(setupTokens);
    // Only the hash is kept.
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);

    const result = await runSetup(db, input(), token);
    expect(result).toMatchObject({ kind: 'done', workspaceSlug: 'acme' });
    expect(await counts(db)).toEqual(ONE_EACH);
    const [row] = await db.execute<{
      role: string;
      time_zone: string;
      password_hash: string;
      admin_user_id: string;
    }>(sql`
      select m.role, w.time_zone, u.password_hash, i.admin_user_id from memberships m
      join users u on u.id = m.user_id join workspaces w on w.id = m.workspace_id, installation i`);
    expect(row).toMatchObject({
      role: 'admin',
      time_zone: 'Europe/Berlin',
      admin_user_id: (result as { userId: string }).userId,
    });
    expect(await verifyPassword(PASSWORD, row!.password_hash)).toBe(true);

    // Afterwards: no token left, none issued, and the same token (or the headless path) cannot set up again.
    expect(await db.select().from(setupTokens)).toHaveLength(0);
    expect(await setupOpen(db)).toBe(false);
    expect(await issueSetupToken(db)).toBeNull();
    expect(await runSetup(db, input('second@acme.test'), token)).toEqual({ kind: 'already_set_up' });
    expect(await runSetup(db, { ...input('third@acme.test'), slug: 'other' }, null)).toEqual({
      kind: 'already_set_up',
    });
    expect(await counts(db)).toEqual(ONE_EACH);
  });

  it('two setups at once with the right token: the installation key lets exactly one through', async () => {
    const { db } = race!;
    const token = (await issueSetupToken(db))!;
    // Both transactions are held at their installation insert until both are there, then run together.
    const release = await holdLock(db, sql`lock table installation in exclusive mode`);
    const a = runSetup(db, { ...input('a@acme.test'), slug: 'acme-a' }, token);
    const b = runSetup(db, { ...input('b@acme.test'), slug: 'acme-b' }, token);
    await untilBlockedCount(db, 'insert into "installation"', 2);
    await release();
    const results = await Promise.all([a, b]);
    expect(results.map((r) => r.kind).sort()).toEqual(['already_set_up', 'done']);
    // The loser wrote nothing: one admin, one workspace (the winner's).
    expect(await counts(db)).toEqual(ONE_EACH);
    const winner = results.find((r) => r.kind === 'done') as { workspaceSlug: string };
    const [ws] = await db.select({ slug: workspaces.slug }).from(workspaces);
    expect(ws!.slug).toBe(winner.workspaceSlug);
  });

  it('a missing or wrong token is refused and writes nothing; the right one still works afterwards', async () => {
    const { db } = refused!;
    const token = (await issueSetupToken(db))!;
    expect(await runSetup(db, input(), '')).toEqual({ kind: 'bad_token' });
    expect(await runSetup(db, input(), token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toEqual({
      kind: 'bad_token',
    });
    expect(await counts(db)).toEqual(NOTHING);
    expect(await runSetup(db, input(), token)).toMatchObject({ kind: 'done' });
  });

  it('a seeded database (users, no installation row) has no setup: closed, and refused even with a token row', async () => {
    const { db } = seeded!;
    const token = (await issueSetupToken(db))!;
    await makeUser(db, 'seeded@demo.test');
    expect(await setupOpen(db)).toBe(false);
    expect(await runSetup(db, input(), token)).toEqual({ kind: 'already_set_up' });
    expect(await counts(db)).toEqual({ ...NOTHING, users: 1 });
  });
});

describe('npm run setup (headless): the same setup, and a one-time link to set the password', () => {
  it('without options prints a token; with --email and --workspace sets up and prints a working link', async () => {
    const { db } = headless!;
    const banner = await setupCommand(db, {}, 'https://semel.example');
    expect(banner.code).toBe(0);
    expect(banner.out.join('\n')).toContain('https://semel.example/setup');

    const bad = await setupCommand(db, { email: 'not-an-email', workspace: 'A' }, 'https://semel.example');
    expect(bad.code).toBe(2);
    expect(bad.out.join('\n')).toMatch(/--email: .*\n?.*--workspace: At least 2/s);
    expect(await counts(db)).toEqual(NOTHING);

    const done = await setupCommand(db, { email: 'Ops@Acme.test', workspace: 'Acme Inc.' }, 'https://semel.example');
    expect(done.code).toBe(0);
    expect(await counts(db)).toEqual(ONE_EACH);
    const [ws] = await db.select({ slug: workspaces.slug, timeZone: workspaces.timeZone }).from(workspaces);
    expect(ws).toEqual({ slug: 'acme-inc', timeZone: 'UTC' });
    const url = new URL(done.out.find((line) => line.startsWith('https://'))!);
    expect(url.pathname).toBe('/password');
    const token = url.searchParams.get('token')!;
    // The admin has no password until the link sets one; the link works once.
    expect((await db.select({ hash: users.passwordHash }).from(users))[0]!.hash).toBeNull();
    expect(await setPasswordWithToken(db, { token, password: PASSWORD })).toEqual({
      kind: 'done',
      email: 'ops@acme.test',
    });
    expect(await verifyPassword(PASSWORD, (await db.select({ hash: users.passwordHash }).from(users))[0]!.hash!)).toBe(
      true,
    );
    expect(await setPasswordWithToken(db, { token, password: 'another long passphrase' })).toEqual({ kind: 'ended' });

    const again = await setupCommand(db, { email: 'x@acme.test', workspace: 'Other' }, 'https://semel.example');
    expect(again).toEqual({ code: 1, out: ['Semel is already set up: nothing was changed.'] });
  });
});

describe('the setup form action: field errors, nothing written', () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return data;
  };
  const fields = {
    name: 'Ada',
    email: 'ada@acme.test',
    workspaceName: 'Acme',
    slug: 'acme',
    timeZone: 'UTC',
    password: PASSWORD,
  };

  it('no token → 403 with an error on the token field; a short or common password → 422 on the password', async () => {
    const { db } = action!;
    const token = (await issueSetupToken(db))!;
    const missing = await setupAction(undefined, form({ ...fields, setupToken: '' }));
    expect(missing).toMatchObject({ ok: false, status: 403 });
    expect(missing.errors?.setupToken?.[0]).toMatch(/not the setup token/);
    const short = await setupAction(undefined, form({ ...fields, setupToken: token, password: 'short pw' }));
    expect(short).toMatchObject({ ok: false, status: 422 });
    expect(short.errors?.password?.[0]).toMatch(/at least 12/);
    const common = await setupAction(undefined, form({ ...fields, setupToken: token, password: 'qwerty123456' }));
    expect(common.errors?.password?.[0]).toMatch(/commonly used/);
    const zone = await setupAction(undefined, form({ ...fields, setupToken: token, timeZone: 'Mars/Olympus' }));
    expect(zone.errors?.timeZone?.[0]).toMatch(/time zone/);
    expect(await counts(db)).toEqual(NOTHING);
    expect(await setupAction(undefined, form({ ...fields, setupToken: token }))).toMatchObject({ ok: true });
    expect(await counts(db)).toEqual(ONE_EACH);
  });
});

/** Waits until `n` sessions are blocked on a lock while running a statement that starts with `prefix`. */
async function untilBlockedCount(db: Database, prefix: string, n: number) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ${`${prefix}%`}`);
    if (row!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${n} sessions blocked on "${prefix}…" within 10 s`);
}

import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '@/lib/auth/password';
import { openCredentials } from '@/lib/providers/credentials';
import { memberships, socialAccounts, users, workspaces } from '@/db/schema';
import { seedDemoData } from './seed';
import { createTestDatabase } from '@/testing/db/test-database';

const encryptionKey = randomBytes(32).toString('base64');
const options = { password: 'seed-test-password', encryptionKey };

const EXPECTED_WORKSPACES = [
  { slug: 'demo', name: 'Demo Agency' },
  { slug: 'other', name: 'Other Agency' },
];
const EXPECTED_MEMBERSHIPS = [
  'demo admin@demo.test admin',
  'demo manager@demo.test manager',
  'demo viewer@demo.test viewer',
  'other admin@other.test admin',
];
// A sandbox account per network in each workspace (X twice in the demo one).
const EXPECTED_ACCOUNTS = [
  'demo bluesky @demo-brand.bsky.sandbox',
  'demo linkedin Demo Agency (page)',
  'demo mastodon @demo@sandbox.social',
  'demo threads @demo_brand_threads',
  'demo x @demo_brand',
  'demo x @demo_support',
  'other bluesky @other-brand.bsky.sandbox',
  'other linkedin Other Agency (page)',
  'other mastodon @other@sandbox.social',
  'other threads @other_brand_threads',
  'other x @other_brand',
];

// One fresh database per scenario (created at the top level so each is dropped after the file).
const [twice, parallel, sealed, passwords] = await Promise.all([
  createTestDatabase(),
  createTestDatabase({ max: 10 }),
  createTestDatabase(),
  createTestDatabase(),
]);
type Db = typeof twice.db;

async function snapshot(db: Db) {
  const ws = await db
    .select({ slug: workspaces.slug, name: workspaces.name })
    .from(workspaces)
    .orderBy(asc(workspaces.slug));
  const us = await db.select({ email: users.email }).from(users).orderBy(asc(users.email));
  const ms = await db
    .select({ slug: workspaces.slug, email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .innerJoin(users, eq(users.id, memberships.userId));
  const accounts = await db
    .select({
      id: socialAccounts.id,
      slug: workspaces.slug,
      provider: socialAccounts.provider,
      handle: socialAccounts.handle,
    })
    .from(socialAccounts)
    .innerJoin(workspaces, eq(workspaces.id, socialAccounts.workspaceId));
  return {
    workspaces: ws,
    users: us.map((u) => u.email),
    memberships: ms.map((m) => `${m.slug} ${m.email} ${m.role}`).sort(),
    accounts: accounts.map((a) => `${a.slug} ${a.provider} ${a.handle}`).sort(),
    accountIds: accounts.map((a) => a.id).sort(),
  };
}

function expectDemoData(s: Awaited<ReturnType<typeof snapshot>>) {
  expect(s.workspaces).toEqual(EXPECTED_WORKSPACES);
  expect(s.users).toEqual(['admin@demo.test', 'admin@other.test', 'manager@demo.test', 'viewer@demo.test']);
  expect(s.memberships).toEqual(EXPECTED_MEMBERSHIPS);
  expect(s.accounts).toEqual(EXPECTED_ACCOUNTS);
}

describe('seedDemoData', () => {
  it('is idempotent: a second run adds nothing and keeps the same rows', async () => {
    const { db } = twice;
    await seedDemoData(db, options);
    const first = await snapshot(db);
    expectDemoData(first);

    await seedDemoData(db, options);
    const second = await snapshot(db);
    expectDemoData(second);
    expect(second.accountIds).toEqual(first.accountIds);
  });

  it('is safe to run twice in parallel (no duplicates, no errors)', async () => {
    const { db } = parallel;
    await Promise.all([seedDemoData(db, options), seedDemoData(db, options)]);
    expectDemoData(await snapshot(db));
  });

  it('stores account credentials encrypted, never the token in plain text', async () => {
    const { db } = sealed;
    await seedDemoData(db, options);
    const rows = await db
      .select({
        id: socialAccounts.id,
        handle: socialAccounts.handle,
        sealed: socialAccounts.credentialsEncrypted,
        last4: socialAccounts.tokenLast4,
        baseUrl: socialAccounts.baseUrl,
        sandbox: socialAccounts.sandbox,
      })
      .from(socialAccounts);
    expect(rows).toHaveLength(EXPECTED_ACCOUNTS.length);
    for (const row of rows) {
      const { accessToken, appPassword } = openCredentials(row.sealed, encryptionKey, row.id);
      // A Bluesky account keeps a session opened with its app password (the sandbox token).
      expect(appPassword ?? accessToken).toMatch(/^sbx_[0-9a-f]{32}$/);
      expect(row.sealed).not.toContain(accessToken);
      if (appPassword) expect(row.sealed).not.toContain(appPassword);
      expect(row.sealed).not.toContain('accessToken');
      expect(row.last4).toBe(accessToken.slice(-4));
      expect(row.sandbox).toBe(true);
      expect(row.baseUrl).toMatch(/^\/api\/sandbox\//);
    }
  });

  it('stores the demo password hashed, and a re-run with a new password updates it', async () => {
    const { db } = passwords;
    await seedDemoData(db, options);
    const [before] = await db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.email, 'viewer@demo.test'));
    expect(before!.hash).not.toContain(options.password);
    await expect(verifyPassword(options.password, before!.hash!)).resolves.toBe(true);

    await seedDemoData(db, { ...options, password: 'a-changed-password' });
    const [after] = await db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.email, 'viewer@demo.test'));
    await expect(verifyPassword('a-changed-password', after!.hash!)).resolves.toBe(true);
  });
});

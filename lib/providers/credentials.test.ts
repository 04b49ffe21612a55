import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectAccount, getAccountWithCredentials, upsertAccount } from '@/db/queries/accounts';
import { socialAccounts } from '@/db/schema';
import { makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { isLegacySealed } from '@/lib/crypto/secret-box';
import { openCredentials, sealCredentials } from './credentials';
import { resealLegacyCredentials } from './reseal-credentials';

const KEY = randomBytes(32).toString('base64');
const { db } = await createTestDatabase();

/** The format written before associated data: AES-256-GCM, no AAD, `v1.` prefix. */
function sealV1(plaintext: string, key = KEY): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    '.',
  );
}

async function account(workspaceId: string, sealed: { id?: string; credentialsEncrypted: string; tokenLast4: string }) {
  return (await upsertAccount(db, {
    workspaceId,
    provider: 'x',
    sandbox: false,
    handle: '@a',
    platformUserId: randomUUID(),
    baseUrl: 'https://api.x.com',
    ...sealed,
  }))!;
}

const sealedOf = async (id: string) =>
  (
    await db.select({ v: socialAccounts.credentialsEncrypted }).from(socialAccounts).where(eq(socialAccounts.id, id))
  )[0]!.v;

describe('sealed credentials are bound to their account (AES-256-GCM, account id as associated data)', () => {
  it('a sealed token copied onto another account no longer opens there', async () => {
    const workspace = await makeWorkspace(db);
    const a = await account(workspace.id, sealCredentials({ accessToken: 'token-of-a-1111' }, KEY));
    const b = await account(workspace.id, sealCredentials({ accessToken: 'token-of-b-2222' }, KEY));
    expect(openCredentials(await sealedOf(a.id), KEY, a.id)).toEqual({ accessToken: 'token-of-a-1111' });
    await db
      .update(socialAccounts)
      .set({ credentialsEncrypted: await sealedOf(a.id) })
      .where(eq(socialAccounts.id, b.id));
    const moved = await sealedOf(b.id);
    expect(() => openCredentials(moved, KEY, b.id)).toThrow();
  });

  it('reconnecting an existing account seals the new token for the existing row', async () => {
    const workspace = await makeWorkspace(db);
    const params = {
      workspaceId: workspace.id,
      provider: 'mastodon' as const,
      sandbox: false,
      handle: '@me',
      platformUserId: '7',
      baseUrl: 'https://m.example',
    };
    const first = await connectAccount(db, params, (id) =>
      sealCredentials({ accessToken: 'first-token-1111' }, KEY, id),
    );
    const again = await connectAccount(db, params, (id) =>
      sealCredentials({ accessToken: 'second-token-2222' }, KEY, id),
    );
    expect(again.id).toBe(first.id);
    const stored = await getAccountWithCredentials(db, { workspaceId: workspace.id, accountId: first.id });
    expect(openCredentials(stored!.credentialsEncrypted, KEY, first.id)).toEqual({ accessToken: 'second-token-2222' });
  });

  it('twenty parallel connects of one identity make one row whose token opens', async () => {
    const workspace = await makeWorkspace(db);
    const params = {
      workspaceId: workspace.id,
      provider: 'x' as const,
      sandbox: false,
      handle: '@p',
      platformUserId: '99',
      baseUrl: 'https://api.x.com',
    };
    const rows = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        connectAccount(db, params, (id) => sealCredentials({ accessToken: `parallel-token-${i}` }, KEY, id)),
      ),
    );
    expect(new Set(rows.map((r) => r.id)).size).toBe(1);
    expect(openCredentials(await sealedOf(rows[0]!.id), KEY, rows[0]!.id).accessToken).toMatch(/^parallel-token-\d+$/);
  });
});

describe('migration of v1 sealed credentials', () => {
  it('re-seals every v1 value as v2 bound to its account; the token is unchanged; running again does nothing', async () => {
    const workspace = await makeWorkspace(db);
    const legacy = await account(workspace.id, {
      credentialsEncrypted: sealV1(JSON.stringify({ accessToken: 'legacy-token-3333' })),
      tokenLast4: '3333',
    });
    // Still opens before the migration (an instance started before it ran keeps working).
    expect(openCredentials(await sealedOf(legacy.id), KEY, legacy.id)).toEqual({ accessToken: 'legacy-token-3333' });

    const first = await resealLegacyCredentials(db, KEY);
    expect(first.resealed).toBeGreaterThanOrEqual(1);
    const migrated = await sealedOf(legacy.id);
    expect(isLegacySealed(migrated)).toBe(false);
    expect(migrated.startsWith('v2.')).toBe(true);
    expect(openCredentials(migrated, KEY, legacy.id)).toEqual({ accessToken: 'legacy-token-3333' });
    expect(() => openCredentials(migrated, KEY, randomUUID())).toThrow();

    expect(await resealLegacyCredentials(db, KEY)).toEqual({ resealed: 0, unreadable: 0 });
    expect(await sealedOf(legacy.id)).toBe(migrated);
  });

  it('leaves a value sealed with another key as it is, and counts it', async () => {
    const workspace = await makeWorkspace(db);
    const foreign = sealV1(JSON.stringify({ accessToken: 'other-key-4444' }), randomBytes(32).toString('base64'));
    const row = await account(workspace.id, { credentialsEncrypted: foreign, tokenLast4: '4444' });
    const result = await resealLegacyCredentials(db, KEY);
    expect(result.unreadable).toBeGreaterThanOrEqual(1);
    expect(await sealedOf(row.id)).toBe(foreign);
    await db.delete(socialAccounts).where(eq(socialAccounts.id, row.id));
  });
});

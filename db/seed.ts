import { createHash } from 'node:crypto';
import { hashPassword } from '@/lib/auth/password';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { sealCredentials } from '@/lib/providers/credentials';
import type { ProviderName } from '@/lib/providers/types';
import type { Database } from './client';
import { upsertAccount } from './queries/accounts';
import { upsertUser } from './queries/users';
import { addMembership, upsertWorkspace, type Role } from './queries/workspaces';

type SeedAccount = { provider: ProviderName; handle: string; displayName: string };

const DEMO: { slug: string; name: string; members: [string, string, Role][]; accounts: SeedAccount[] }[] = [
  {
    slug: 'demo',
    name: 'Demo Agency',
    members: [
      ['admin@demo.test', 'Ada Admin', 'admin'],
      ['manager@demo.test', 'Max Manager', 'manager'],
      ['viewer@demo.test', 'Vic Viewer', 'viewer'],
    ],
    accounts: [
      { provider: 'x', handle: '@demo_brand', displayName: 'Demo Brand' },
      { provider: 'x', handle: '@demo_support', displayName: 'Demo Support' },
      { provider: 'mastodon', handle: '@demo@sandbox.social', displayName: 'Demo on Mastodon' },
    ],
  },
  {
    slug: 'other',
    name: 'Other Agency',
    members: [['admin@other.test', 'Olga Other', 'admin']],
    accounts: [{ provider: 'x', handle: '@other_brand', displayName: 'Other Brand' }],
  },
];

/** Idempotent: running it again updates names and passwords and adds nothing twice. */
export async function seedDemoData(db: Database, options: { password: string; encryptionKey: string }) {
  const passwordHash = await hashPassword(options.password);
  for (const spec of DEMO) {
    const workspace = await upsertWorkspace(db, { slug: spec.slug, name: spec.name });
    for (const [email, name, role] of spec.members) {
      const user = await upsertUser(db, { email, name, passwordHash });
      await addMembership(db, { workspaceId: workspace.id, userId: user.id, role });
    }
    for (const account of spec.accounts) {
      // Deterministic ids keep the seed idempotent; tokens are random and sealed at rest.
      const platformUserId = BigInt(
        '0x' + createHash('sha256').update(`${spec.slug}:${account.handle}`).digest('hex').slice(0, 12),
      ).toString();
      const token = `sbx_${createHash('sha256').update(`${platformUserId}:${Math.random()}`).digest('hex').slice(0, 32)}`;
      await upsertAccount(db, {
        workspaceId: workspace.id,
        provider: account.provider,
        sandbox: true,
        handle: account.handle,
        displayName: account.displayName,
        platformUserId,
        // Sandbox accounts point at this app's own sandbox network (a relative base URL).
        baseUrl: PROVIDER_META[account.provider].sandboxPath,
        ...sealCredentials({ accessToken: token }, options.encryptionKey),
      });
    }
  }
}

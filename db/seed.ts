import { createHash } from 'node:crypto';
import { hashPassword } from '@/lib/auth/password';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { sealCredentials } from '@/lib/providers/credentials';
import { sandboxCredentials } from '@/lib/sandbox/connect';
import { linkedinOrganizationUrn } from '@/lib/sandbox/linkedin-identity';
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
      { provider: 'bluesky', handle: '@demo-brand.bsky.sandbox', displayName: 'Demo on Bluesky' },
      { provider: 'linkedin', handle: 'Demo Agency (page)', displayName: 'Demo Agency on LinkedIn' },
      { provider: 'threads', handle: '@demo_brand_threads', displayName: 'Demo on Threads' },
    ],
  },
  {
    slug: 'other',
    name: 'Other Agency',
    members: [['admin@other.test', 'Olga Other', 'admin']],
    accounts: [
      { provider: 'x', handle: '@other_brand', displayName: 'Other Brand' },
      { provider: 'mastodon', handle: '@other@sandbox.social', displayName: 'Other on Mastodon' },
      { provider: 'bluesky', handle: '@other-brand.bsky.sandbox', displayName: 'Other on Bluesky' },
      { provider: 'linkedin', handle: 'Other Agency (page)', displayName: 'Other Agency on LinkedIn' },
      { provider: 'threads', handle: '@other_brand_threads', displayName: 'Other on Threads' },
    ],
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
      // (X and Mastodon keep the ids earlier seeds gave them; the others name the network, as handles may repeat.)
      const seedKey = ['x', 'mastodon'].includes(account.provider) ? '' : `${account.provider}:`;
      const digest = createHash('sha256').update(`${spec.slug}:${seedKey}${account.handle}`).digest();
      const platformUserId = seedPlatformUserId(account.provider, digest);
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
        ...sealCredentials(
          sandboxCredentials(account.provider, { platformUserId, handle: account.handle, token }),
          options.encryptionKey,
        ),
      });
    }
  }
}

/** A platform user id shaped like the network's own: a did:plc DID, a LinkedIn page URN, or digits. */
function seedPlatformUserId(provider: ProviderName, digest: Buffer): string {
  const digits = BigInt('0x' + digest.subarray(0, 6).toString('hex')).toString();
  if (provider === 'bluesky') return `did:plc:${Array.from(digest.subarray(0, 24), (b) => BASE32[b & 31]).join('')}`;
  if (provider === 'linkedin') return linkedinOrganizationUrn(digits);
  return digits;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

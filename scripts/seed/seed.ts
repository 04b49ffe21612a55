import { createHash } from 'node:crypto';
import path from 'node:path';
import { hashPassword } from '@/lib/auth/password';
import type { Env } from '@/lib/env';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { sealCredentials } from '@/lib/providers/credentials';
import { sandboxCredentials } from '@/lib/sandbox/connect';
import { seedDemoInbox } from './seed-inbox';
import { linkedinOrganizationUrn } from '@/sandbox/dialects/linkedin/identity';
import { didPlcFrom } from '@/sandbox/oauth/tokens';
import type { ProviderName } from '@/db/schema';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { upsertAccount } from '@/db/queries/accounts';
import { socialAccounts } from '@/db/schema';
import { seedDemoAnalytics } from './seed-analytics';
import { seedDemoPosts, type SeedPostsOptions } from './seed-posts';
import { upsertUser } from '@/db/queries/users';
import { addMembership, upsertWorkspace, type Role } from '@/db/queries/workspaces';

type SeedAccountSpec = { provider: ProviderName; handle: string; displayName: string };

const DEMO: { slug: string; name: string; members: [string, string, Role][]; accounts: SeedAccountSpec[] }[] = [
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

/** What the demo week of posts needs beyond the accounts (scripts/seed/seed-posts.ts); `now` defaults to the current time. */
export type DemoPostsOptions = Pick<SeedPostsOptions, 'origin' | 'media' | 'callTimeoutMs' | 'allowanceMs'> & {
  now?: Date;
};

/** The demo week's options from the validated environment: images under MEDIA_DIR, the publisher's timings. */
export function demoPostsOptions(env: Env, origin: string): DemoPostsOptions {
  return {
    origin,
    media: createDiskMediaStorage(path.resolve(env.MEDIA_DIR)),
    callTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS,
    allowanceMs: env.RECONCILE_ALLOWANCE_MS,
  };
}

/**
 * Idempotent: running it again updates names and passwords and adds nothing twice. With `posts`, each workspace
 * also gets a demo week of posts in every state (once per week: a restart adds none).
 */
export async function seedDemoData(
  db: Database,
  options: {
    password: string;
    encryptionKey: string;
    posts?: DemoPostsOptions;
    /** Six weeks of sent posts with their metrics and followers (the analytics page); needs `posts`. */
    analytics?: { delaysMs: number[] };
  },
) {
  const passwordHash = await hashPassword(options.password);
  for (const spec of DEMO) {
    const workspace = await upsertWorkspace(db, { slug: spec.slug, name: spec.name });
    const members = [];
    for (const [email, name, role] of spec.members) {
      const user = await upsertUser(db, { email, name, passwordHash });
      await addMembership(db, { workspaceId: workspace.id, userId: user.id, role });
      members.push({ id: user.id, role });
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
    if (!options.posts) continue;
    const { now, ...posts } = options.posts;
    const accounts = await seededAccounts(db, workspace.id, spec.accounts);
    const authorUserId = (members.find((m) => m.role === 'manager') ?? members[0]!).id;
    await seedDemoPosts(db, {
      ...posts,
      now: now ?? new Date(),
      workspaceId: workspace.id,
      timeZone: workspace.timeZone,
      latenessLimitSeconds: workspace.latenessLimitSeconds,
      accounts,
      authorUserId,
      adminUserId: (members.find((m) => m.role === 'admin') ?? members[0]!).id,
      encryptionKey: options.encryptionKey,
    });
    await seedDemoInbox(db, workspace.id);
    if (options.analytics)
      await seedDemoAnalytics(db, {
        workspaceId: workspace.id,
        accounts,
        authorUserId,
        origin: posts.origin,
        now: now ?? new Date(),
        delaysMs: options.analytics.delaysMs,
      });
  }
}

/** The workspace's connected sandbox accounts, in the order the seed lists them (its first X account first). */
async function seededAccounts(db: Database, workspaceId: string, specs: SeedAccountSpec[]) {
  const rows = await db
    .select({
      id: socialAccounts.id,
      provider: socialAccounts.provider,
      handle: socialAccounts.handle,
      platformUserId: socialAccounts.platformUserId,
    })
    .from(socialAccounts)
    .where(
      and(
        eq(socialAccounts.workspaceId, workspaceId),
        eq(socialAccounts.sandbox, true),
        isNull(socialAccounts.disconnectedAt),
      ),
    );
  return specs.flatMap((s) => rows.filter((r) => r.provider === s.provider && r.handle === s.handle));
}

/** A platform user id shaped like the network's own: a did:plc DID, a LinkedIn page URN, or digits. */
function seedPlatformUserId(provider: ProviderName, digest: Buffer): string {
  const digits = BigInt('0x' + digest.subarray(0, 6).toString('hex')).toString();
  if (provider === 'bluesky') return didPlcFrom(digest);
  if (provider === 'linkedin') return linkedinOrganizationUrn(digits);
  return digits;
}

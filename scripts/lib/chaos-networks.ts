// The chaos run's accounts on every network: which profiles (none more forgiving than the real server), how an
// account is registered (as the app does it: lib/sandbox/register-identity.ts) and how a copy on the platform's own
// records is named (the id our database keeps for it: a Bluesky record's at:// URI, a LinkedIn share URN).
import type { Database } from '@/db/client';
import { upsertAccount } from '@/db/queries/accounts';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { sealCredentials } from '@/lib/providers/credentials';
import { recordUri } from '@/sandbox/dialects/bluesky/records';
import { commentUrn } from '@/sandbox/dialects/linkedin/comments';
import { sandboxRegistrations } from '@/sandbox/dialects/linkedin/identity';
import { shareUrn } from '@/sandbox/dialects/linkedin/posts';
import { registerSandboxIdentity } from '@/lib/sandbox/register-identity';
import type { FaultsUpdate, Platform, Profile, SandboxAccount, SandboxPost, SandboxStore } from '@/sandbox/store/types';
import type { Copy } from './chaos-verdict';

/**
 * The weak profiles: none absorbs a resend that the real server would publish, so zero duplicates must come from
 * our guards. Bluesky has one profile (a PDS answers a write to an occupied record key one way only); LinkedIn's
 * and Threads' own profiles refuse only what the real servers refuse (a duplicate text, a published container),
 * and `plain` refuses nothing. LinkedIn accounts are organization pages: their posts can be listed, so an
 * ambiguity settles by reading; a member's goes to review by design and is not part of this run. Instagram's posts
 * carry one JPEG (a post needs media), fetched by the sandbox from the app's signed URL; its own profile refuses a
 * published container as Instagram does, `plain` publishes it again; a thread to it is the post and its first comment.
 * Facebook pages (no dedupe on either profile) post text. TikTok and YouTube posts carry a 4 s vertical video, TikTok's
 * with a privacy level; their daily caps take only a few of the run's posts (RUN_CAPS).
 */
export const CHAOS_PROFILES: readonly { profile: Profile; platform: Platform }[] = [
  { profile: 'plain', platform: 'x' },
  { profile: 'x-nodedupe', platform: 'x' },
  { profile: 'plain', platform: 'mastodon' },
  { profile: 'mastodon-legacy', platform: 'mastodon' },
  { profile: 'mastodon-nokey', platform: 'mastodon' },
  { profile: 'bluesky', platform: 'bluesky' },
  { profile: 'linkedin', platform: 'linkedin' },
  { profile: 'plain', platform: 'linkedin' },
  { profile: 'threads', platform: 'threads' },
  { profile: 'plain', platform: 'threads' },
  { profile: 'instagram', platform: 'instagram' },
  { profile: 'plain', platform: 'instagram' },
  { profile: 'facebook', platform: 'facebook' },
  { profile: 'plain', platform: 'facebook' },
  { profile: 'tiktok', platform: 'tiktok' },
  { profile: 'youtube', platform: 'youtube' },
];

/** The file each chaos post to a network that needs one carries: Instagram one JPEG, TikTok and YouTube one video. */
export const MEDIA_OF: Partial<Record<Platform, 'image' | 'video'>> = {
  instagram: 'image',
  tiktok: 'video',
  youtube: 'video',
};
export const NEEDS_MEDIA: ReadonlySet<Platform> = new Set(Object.keys(MEDIA_OF) as Platform[]);

/** The options a chaos post carries where its network asks for some: TikTok's privacy level (the user's choice). */
export const OPTIONS_OF: Partial<Record<Platform, Record<string, unknown>>> = {
  tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE' },
};

/**
 * Networks whose daily caps no run of this size fits, and so take only this many of its posts: TikTok 15 posts a
 * creator a day (10 per account here), YouTube 6 uploads a Google project a day, shared by every account (2 in
 * all: a lost session start spends an upload's quota too). The rest of the posts go round the other accounts.
 */
export const RUN_CAPS: Partial<Record<Platform, { perAccount?: number; perNetwork?: number }>> = {
  tiktok: { perAccount: 10 },
  youtube: { perNetwork: 2 },
};

/**
 * Which account each of `n` posts goes to: round the accounts, passing over one whose network's run cap is reached.
 */
export function assignPosts(accounts: readonly { platform: Platform }[], n: number): number[] {
  const perAccount = new Map<number, number>();
  const perNetwork = new Map<Platform, number>();
  const assigned: number[] = [];
  let next = 0;
  for (let i = 0; i < n; i++) {
    for (let tried = 0; ; tried++, next++) {
      if (tried > accounts.length) throw new Error('chaos: every account is at its run cap');
      const k = next % accounts.length;
      const { platform } = accounts[k]!;
      const cap = RUN_CAPS[platform];
      if ((perAccount.get(k) ?? 0) >= (cap?.perAccount ?? Infinity)) continue;
      if ((perNetwork.get(platform) ?? 0) >= (cap?.perNetwork ?? Infinity)) continue;
      perAccount.set(k, (perAccount.get(k) ?? 0) + 1);
      perNetwork.set(platform, (perNetwork.get(platform) ?? 0) + 1);
      assigned.push(k);
      next++;
      break;
    }
  }
  return assigned;
}

/**
 * Posts a profile may publish in 24 hours, where the network caps it (the sandbox refuses the next one, as the
 * network does, or the registry holds back): Threads 250, Instagram 100 (content_publishing_limit), Facebook 100.
 */
export const POSTS_PER_DAY: Partial<Record<Platform, number>> = { threads: 250, instagram: 100, facebook: 100 };

export type ChaosAccount = {
  /** The product's social account id. */
  id: string;
  platform: Platform;
  /** "profile/platform", as reports name it. */
  profile: string;
  profileName: Profile;
  /** The author's sandbox account: its posts, its faults. */
  sandbox: SandboxAccount;
};

/** Registers the identity on the sandbox, sets its faults and stores it, sealed, as a workspace's account. */
export async function connectChaosAccount(
  db: Database,
  params: {
    store: SandboxStore;
    sandboxUrl: string;
    workspaceId: string;
    encryptionKey: string;
    platform: Platform;
    profile: Profile;
    faults: Omit<FaultsUpdate, 'profile'>;
  },
): Promise<ChaosAccount> {
  const { store, platform, profile } = params;
  const identity = await registerSandboxIdentity(store, platform, 'chaos', { linkedinAuthor: 'organization' });
  await store.setFaults([identity.sandboxAccount.id], { ...params.faults, profile });
  const row = await upsertAccount(db, {
    workspaceId: params.workspaceId,
    provider: platform,
    sandbox: true,
    handle: identity.handle,
    platformUserId: identity.platformUserId,
    baseUrl: `${params.sandboxUrl}${PROVIDER_META[platform].sandboxPath}`,
    ...sealCredentials(identity.credentials, params.encryptionKey),
  });
  return {
    id: row!.id,
    platform,
    profile: `${profile}/${platform}`,
    profileName: profile,
    sandbox: identity.sandboxAccount,
  };
}

/** The id our database keeps for a copy (`deliveries.external_id`), as the network's own API names it. */
export function platformPostId(platform: Platform, author: SandboxAccount, post: SandboxPost): string {
  switch (platform) {
    case 'bluesky':
      return recordUri(author, post.recordKey!);
    case 'linkedin':
      // A first comment is named by the Comments API's URN (under the post's activity).
      return post.kind === 'reply' ? commentUrn(post) : shareUrn(post.id);
    case 'x':
    case 'mastodon':
    case 'threads':
    case 'instagram':
    case 'tiktok':
    case 'youtube':
      return post.id;
    case 'facebook':
      // A page post's id as Graph names it: `{page-id}_{post-id}`; a comment's `{post-id}_{comment-id}`.
      return post.kind === 'reply' ? `${post.inReplyToId}_${post.id}` : `${author.platformUserId}_${post.id}`;
  }
}

/**
 * The post a copy replies to, named as our database names that post (the sandbox keeps a comment's parent by its own
 * id; LinkedIn and Facebook name the page's post otherwise). A first comment is the page's own, under its own post.
 */
function parentPostId(platform: Platform, author: SandboxAccount, post: SandboxPost): string | null {
  if (!post.inReplyToId) return null;
  if (platform === 'linkedin') return shareUrn(post.inReplyToId);
  if (platform === 'facebook') return `${author.platformUserId}_${post.inReplyToId}`;
  return post.inReplyToId;
}

/**
 * Every copy ever stored (deleted ones too) on every sandbox account behind the chaos accounts — a LinkedIn page's
 * administering member included — grouped by text. Threads: posts (containers are not posts); Bluesky: records.
 */
export async function copiesOnPlatform(store: SandboxStore, accounts: ChaosAccount[]): Promise<Map<string, Copy[]>> {
  const byText = new Map<string, Copy[]>();
  for (const account of accounts) {
    const behind = sandboxRegistrations({
      provider: account.platform,
      platformUserId: account.sandbox.platformUserId,
      handle: account.sandbox.handle,
      displayName: account.sandbox.displayName,
    });
    for (const registration of behind) {
      const author = await store.getAccount(account.platform, registration.platformUserId);
      if (!author) throw new Error(`chaos: ${registration.platformUserId} is not registered on the sandbox`);
      for (const post of await store.listAllPosts(author.id)) {
        const list = byText.get(post.text) ?? [];
        // Each dialect stores a reply's parent as its API names it (Bluesky: the parent's at:// URI).
        list.push({
          id: platformPostId(account.platform, author, post),
          text: post.text,
          parent: parentPostId(account.platform, author, post),
        });
        byText.set(post.text, list);
      }
    }
  }
  return byText;
}

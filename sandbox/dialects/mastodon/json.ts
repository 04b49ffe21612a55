import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';
import { renderStatusText } from './content';
import type { Profile, SandboxAccount, SandboxMedia, SandboxPost } from '@/sandbox/store/types';

// The JSON entities of Mastodon's API as the sandbox answers them (Status, Account, MediaAttachment).

export function attachmentJson(media: SandboxMedia, base: string, processing: boolean) {
  const url = `${base}/media/${media.sha256}`;
  return {
    id: media.id,
    type: 'image',
    url: processing ? null : url,
    preview_url: url,
    remote_url: null,
    description: media.altText || null,
    blurhash: null,
    meta: {},
  };
}

function username(account: SandboxAccount): string {
  return account.handle.replace(/^@/, '').split('@')[0]!;
}

export function accountJson(account: SandboxAccount, base: string) {
  const name = username(account);
  return {
    id: account.platformUserId,
    username: name,
    acct: name,
    display_name: account.displayName ?? name,
    locked: false,
    bot: false,
    created_at: new Date(0).toISOString(),
    note: '',
    url: `${base}/@${name}`,
    avatar: '',
    header: '',
    followers_count: followersOf(account, 'mastodon'),
    following_count: 0,
    statuses_count: 0,
  };
}

/** A status with `content` as the author's server renders the text (sandbox/dialects/mastodon/content.ts). */
export function statusJson(post: SandboxPost, author: SandboxAccount, base: string, profile: Profile) {
  const rendered = renderStatusText(post.text, profile, base);
  const url = `${base}/api/v1/statuses/${post.id}`;
  const counts = engagementOf(post, 'mastodon');
  return {
    id: post.id,
    created_at: post.createdAt.toISOString(),
    in_reply_to_id: post.inReplyToId,
    in_reply_to_account_id: null,
    sensitive: false,
    spoiler_text: '',
    visibility: post.kind === 'dm' ? 'direct' : 'public',
    language: 'en',
    uri: url,
    url,
    replies_count: counts.replies,
    reblogs_count: counts.reposts,
    favourites_count: counts.likes,
    content: rendered.content,
    reblog: null,
    application: { name: 'Semel', website: null },
    account: accountJson(author, base),
    media_attachments: post.media.map((m, i) => ({
      id: `${post.id}${i}`,
      type: 'image',
      url: `${base}/media/${m.sha256}`,
      preview_url: `${base}/media/${m.sha256}`,
      description: m.altText || null,
      blurhash: null,
    })),
    mentions: rendered.mentions,
    tags: rendered.tags,
    emojis: rendered.emojis,
    card: null,
    poll: null,
  };
}

/** The domain of every sandbox handle (lib/sandbox/connect.ts), not the host the sandbox is served from. */
export const SANDBOX_MASTODON_DOMAIN = 'sandbox.social';

/** GET /api/v1/instance (`uri` is the bare domain) and /api/v2/instance (`domain`), as Mastodon 4 answers them. */
export function instanceJson(version: 'v1' | 'v2') {
  const common = { title: 'Semel sandbox', version: '4.3.0', description: 'A fake Mastodon instance for tests.' };
  return version === 'v1'
    ? { uri: SANDBOX_MASTODON_DOMAIN, ...common, short_description: '', languages: ['en'], registrations: false }
    : {
        domain: SANDBOX_MASTODON_DOMAIN,
        ...common,
        source_url: '',
        languages: ['en'],
        registrations: { enabled: false },
      };
}

import { graphemeCount } from '@/lib/posts/text';
import type { ProviderMeta } from '../definition';

export const blueskyMeta = {
  name: 'bluesky',
  label: 'Bluesky',
  exactlyOnce:
    'Every attempt writes one record under a key derived from the delivery (putRecord with swapRecord: a resend can never create a second record); an unknown outcome is settled by reading that record (getRecord).',
  textLimit: 300,
  countText: graphemeCount,
  media: { maxPerPost: 4, maxBytes: 1_000_000, types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
  kinds: ['post', 'reply'],
  connect: {
    method: 'app-password',
    oauth: false,
    fields: [
      { name: 'serviceUrl', label: 'PDS URL', type: 'url', defaultValue: 'https://bsky.social' },
      { name: 'identifier', label: 'Handle or email', type: 'text', autoComplete: 'username' },
      { name: 'appPassword', label: 'App password', type: 'password', autoComplete: 'off' },
    ],
  },
  sandboxPath: '/api/sandbox/bluesky',
  // The sandbox's getRecord for the post (its timeline gives a Bluesky post's record key as its id).
  sandboxPostPath: (rkey, did) =>
    `/api/sandbox/bluesky/xrpc/com.atproto.repo.getRecord?${new URLSearchParams({ repo: did, collection: 'app.bsky.feed.post', rkey })}`,
} as const satisfies ProviderMeta;

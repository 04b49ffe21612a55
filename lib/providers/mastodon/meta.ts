import { characterCount } from '@/lib/posts/text';
import type { ProviderMeta } from '../definition';

export const mastodonMeta = {
  name: 'mastodon',
  label: 'Mastodon',
  exactlyOnce:
    'Each attempt sends the delivery’s Idempotency-Key, but nothing relies on it: an unknown outcome is settled by reading the account’s statuses, twice and after the instance has certainly finished, before a new attempt.',
  textLimit: 500,
  countText: characterCount,
  media: { maxPerPost: 4, maxBytes: 5 * 1024 * 1024, types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
  kinds: ['post', 'reply', 'dm'],
  connect: {
    method: 'token',
    oauth: false,
    fields: [
      { name: 'instanceUrl', label: 'Instance URL', type: 'url', placeholder: 'https://mastodon.social' },
      { name: 'accessToken', label: 'Access token', type: 'password', autoComplete: 'off' },
    ],
  },
  sandboxPath: '/api/sandbox/mastodon',
  sandboxPostPath: (id) => `/api/sandbox/mastodon/api/v1/statuses/${id}`,
} as const satisfies ProviderMeta;

import type { ProviderMeta } from '../definition';
import { xWeightedLength } from './text-length';

export const xMeta = {
  name: 'x',
  label: 'X',
  exactlyOnce:
    'X has no idempotency key: an unknown outcome is settled only by reading the account’s posts, after every request that may still be running has ended, twice before a new attempt.',
  textLimit: 280,
  // Weighted: URLs 23, emoji and CJK 2 (lib/providers/x/text-length.ts).
  countText: xWeightedLength,
  // One-request uploads (POST /2/media/upload, tweet_image) take no GIF: X wants animated GIFs chunked (tweet_gif).
  media: { maxPerPost: 4, maxBytes: 5 * 1024 * 1024, types: ['image/jpeg', 'image/png', 'image/webp'] },
  kinds: ['post', 'reply', 'dm'],
  connect: {
    method: 'token',
    oauth: true,
    fields: [
      { name: 'baseUrl', label: 'API base URL', type: 'url', defaultValue: 'https://api.x.com' },
      { name: 'platformUserId', label: 'User id', type: 'text', autoComplete: 'off' },
      { name: 'accessToken', label: 'OAuth 2.0 user access token', type: 'password', autoComplete: 'off' },
    ],
  },
  sandboxPath: '/api/sandbox/x',
  sandboxPostPath: (id) => `/api/sandbox/x/2/tweets/${id}`,
} as const satisfies ProviderMeta;

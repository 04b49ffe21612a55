import type { ProviderMeta } from '../definition';
import { threadsTextLength } from './text-length';

export const threadsMeta = {
  name: 'threads',
  label: 'Threads',
  exactlyOnce:
    'A delivery creates one media container, kept across attempts, and publishes it; an unknown outcome is settled by the container’s status (PUBLISHED means it went out) and the account’s thread listing.',
  textLimit: 500,
  countText: threadsTextLength,
  media: { maxPerPost: 4, maxBytes: 5 * 1024 * 1024, types: ['image/jpeg', 'image/png'] },
  kinds: ['post', 'reply'],
  connect: { method: 'oauth', oauth: true, fields: [] },
  sandboxPath: '/api/sandbox/threads',
  sandboxPostPath: (id) => `/api/sandbox/threads/v1.0/${id}?fields=id,text,timestamp,permalink,username`,
} as const satisfies ProviderMeta;

import type { ApiKeyScope } from '@/db/schema';

/** What each API key scope allows (Settings → API); no runtime imports, so client components can use it. */
export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'posts:read': 'Read posts and their deliveries',
  'posts:write': 'Create, edit and cancel posts; upload images',
  'accounts:read': 'List connected accounts and read their posting slots',
  'accounts:write': 'Connect and disconnect accounts; change their posting slots',
  'webhooks:write': 'List, add and delete webhook endpoints',
  'workspace:write': 'Read and change workspace settings (posts need approval)',
  'posts:approve': 'Approve posts or request changes',
  'inbox:read': 'Read the inbox: replies, comments, mentions and messages, with their answers',
  'inbox:write': 'Answer inbox items (each once per intent)',
};

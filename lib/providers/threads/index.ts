import { z } from 'zod';
import type { ProviderDefinition } from '../definition';
import { THREADS_RULES } from './classifier';
import { createThreadsClient } from './client';
import { threadsMeta } from './meta';
import { longLivedTokens } from '../meta-graph/tokens';
import { THREADS_NETWORK } from '../meta-graph/network';
import { classifyThreads } from './classifier';

const tokens = longLivedTokens(THREADS_NETWORK, classifyThreads);

export const threadsProvider = {
  ...threadsMeta,
  // "Threads profiles are limited to 250 API-published posts within a 24-hour moving period."
  rateLimit: { max: 250, windowSeconds: 86_400 },
  // Threads tokens come from its OAuth flow only: there is no token an admin could paste and keep renewed.
  connectSchema: z.object({}),
  verify: async () => ({
    ok: false,
    message: 'Threads accounts connect through “Connect with Threads” (OAuth); pasted credentials are not accepted.',
  }),
  createClient: createThreadsClient,
  rules: THREADS_RULES,
  // The container kept on the delivery is the evidence (readBack); without one, the account's listing.
  reconcile: 'evidence',
  isDuplicateEvidence: () => false,
  oauth: {
    authorizeUrl: 'https://threads.net/oauth/authorize',
    tokenUrl: 'https://graph.threads.net/oauth/access_token',
    // threads_read_replies: the replies listing (GET /{user}/replies) that settles a reply; threads_delete:
    // deleting extra copies (DELETE /{media-id}).
    scopes: [
      'threads_basic',
      'threads_content_publish',
      'threads_manage_replies',
      'threads_read_replies',
      'threads_delete',
      // The posts' insights and the profile's follower count (analytics).
      'threads_manage_insights',
    ],
    clientIdEnv: 'THREADS_APP_ID',
    clientSecretEnv: 'THREADS_APP_SECRET',
    apiBaseUrl: 'https://graph.threads.net',
    longLivedExchange: tokens.exchange,
  },
  refresh: tokens.refresh,
} satisfies ProviderDefinition;

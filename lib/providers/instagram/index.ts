import { z } from 'zod';
import type { ProviderDefinition } from '../definition';
import { INSTAGRAM_NETWORK } from '../meta-graph/network';
import { longLivedTokens } from '../meta-graph/tokens';
import { INSTAGRAM_RULES, classifyInstagram } from './classifier';
import { createInstagramClient } from './client';
import { instagramMeta } from './meta';

const tokens = longLivedTokens(INSTAGRAM_NETWORK, classifyInstagram);

export const instagramProvider = {
  ...instagramMeta,
  // "Instagram accounts are limited to 100 API-published posts within a 24-hour moving period" (carousels count
  // as one); the account's content_publishing_limit is read before each publish as well.
  rateLimit: { max: 100, windowSeconds: 86_400 },
  // Instagram tokens come from its OAuth flow only (Instagram Login).
  connectSchema: z.object({}),
  verify: async () => ({
    ok: false,
    message:
      'Instagram accounts connect through “Connect with Instagram” (OAuth); pasted credentials are not accepted.',
  }),
  createClient: createInstagramClient,
  rules: INSTAGRAM_RULES,
  // The container kept on the delivery is the evidence (readBack); an expired one, the account's media listing.
  reconcile: 'evidence',
  isDuplicateEvidence: () => false,
  oauth: {
    authorizeUrl: 'https://www.instagram.com/oauth/authorize',
    tokenUrl: 'https://api.instagram.com/oauth/access_token',
    // instagram_business_manage_comments: the first comment and, later, the inbox's comments.
    scopes: [
      'instagram_business_basic',
      'instagram_business_content_publish',
      'instagram_business_manage_comments',
      // The media's insights (analytics).
      'instagram_business_manage_insights',
    ],
    clientIdEnv: 'INSTAGRAM_APP_ID',
    clientSecretEnv: 'INSTAGRAM_APP_SECRET',
    apiBaseUrl: 'https://graph.instagram.com',
    longLivedExchange: tokens.exchange,
  },
  refresh: tokens.refresh,
} satisfies ProviderDefinition;

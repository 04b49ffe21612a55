import { z } from 'zod';
import { accessToken, httpUrl } from '../connect-fields';
import { verifyByWhoAmI } from '../connect';
import { oauthRefresh } from '@/lib/oauth/refresh';
import type { OAuthConfig, ProviderDefinition } from '../definition';
import { X_RULES } from './classifier';
import { createXClient } from './client';
import { xMeta } from './meta';

/** OAuth 2.0 user context (authorization code with PKCE), an alternative to pasting a token. */
const X_OAUTH = {
  authorizeUrl: 'https://x.com/i/oauth2/authorize',
  tokenUrl: 'https://api.x.com/2/oauth2/token',
  scopes: ['tweet.read', 'tweet.write', 'users.read', 'dm.write', 'offline.access'],
  clientIdEnv: 'X_CLIENT_ID',
  clientSecretEnv: 'X_CLIENT_SECRET',
  apiBaseUrl: 'https://api.x.com',
} as const satisfies OAuthConfig;

/** The connect form's fields (also POST /api/v1/accounts's, so both check the same way). */
export const xConnectFields = {
  baseUrl: httpUrl('API base URL'),
  accessToken,
  platformUserId: z
    .string()
    .trim()
    .regex(/^\d{1,19}$/, 'The numeric X user id'),
};

export const xProvider = {
  ...xMeta,
  rateLimit: { max: 100, windowSeconds: 15 * 60 },
  connectSchema: z.object(xConnectFields),
  verify: (input, tools) =>
    verifyByWhoAmI(tools, {
      baseUrl: input.baseUrl!,
      platformUserId: input.platformUserId,
      credentials: { accessToken: input.accessToken! },
    }),
  createClient: createXClient,
  rules: X_RULES,
  reconcile: 'timeline',
  isDuplicateEvidence: (c) => c.rule === 'x-duplicate-content',
  oauth: X_OAUTH,
  // Access tokens live two hours; `offline.access` gives a refresh token, rotated on every refresh.
  refresh: oauthRefresh(X_OAUTH),
} satisfies ProviderDefinition;

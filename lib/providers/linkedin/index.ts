import { z } from 'zod';
import { getEnv } from '@/lib/env';
import type { ProviderDefinition } from '../definition';
import { LINKEDIN_RULES } from './classifier';
import { createLinkedinClient } from './client';
import { linkedinMeta } from './meta';

export const linkedinProvider = {
  ...linkedinMeta,
  // "Share on LinkedIn": 150 posts a day per member (counted per member token, reset at midnight UTC).
  rateLimit: { max: 150, windowSeconds: 24 * 60 * 60 },
  connectSchema: z.object({}),
  // Only sign-in with LinkedIn: a member token is issued to this app's OAuth client, never pasted.
  verify: async () => ({
    ok: false,
    message: 'LinkedIn accounts connect through “Sign in with LinkedIn” (OAuth), not a pasted token.',
  }),
  createClient: (account, send) => createLinkedinClient(account, send, { version: getEnv().LINKEDIN_API_VERSION }),
  rules: LINKEDIN_RULES,
  reconcile: 'evidence',
  isDuplicateEvidence: (c) => c.rule === 'linkedin-duplicate-post',
  oauth: {
    authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    scopes: [
      'openid',
      'profile',
      'w_member_social',
      'w_organization_social',
      'r_organization_social',
      'rw_organization_admin',
    ],
    clientIdEnv: 'LINKEDIN_CLIENT_ID',
    clientSecretEnv: 'LINKEDIN_CLIENT_SECRET',
    apiBaseUrl: 'https://api.linkedin.com',
  },
  refresh: null,
} satisfies ProviderDefinition;

import { z } from 'zod';
import { accessToken, httpUrl } from '../connect-fields';
import { verifyByWhoAmI } from '../connect';
import type { ProviderDefinition } from '../definition';
import { MASTODON_RULES } from './classifier';
import { createMastodonClient } from './client';
import { mastodonMeta } from './meta';

/** The connect form's fields (also POST /api/v1/accounts's, so both check the same way). */
export const mastodonConnectFields = { instanceUrl: httpUrl('Instance URL'), accessToken };

export const mastodonProvider = {
  ...mastodonMeta,
  rateLimit: { max: 300, windowSeconds: 3 * 60 * 60 },
  connectSchema: z.object(mastodonConnectFields),
  verify: (input, tools) =>
    verifyByWhoAmI(tools, { baseUrl: input.instanceUrl!, credentials: { accessToken: input.accessToken! } }),
  createClient: createMastodonClient,
  rules: MASTODON_RULES,
  reconcile: 'timeline',
  isDuplicateEvidence: () => false,
  oauth: null,
  refresh: null,
} satisfies ProviderDefinition;

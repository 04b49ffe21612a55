import { z } from 'zod';
import type { ProviderDefinition } from '../definition';
import { NETWORK_RULES } from '../classify';
import { blueskyMeta } from './meta';

// Placeholder until the Bluesky client lands (issue 13): the entry is complete, the client refuses.
export const blueskyProvider = {
  ...blueskyMeta,
  rateLimit: { max: 100, windowSeconds: 60 * 60 },
  connectSchema: z.object({}),
  verify: async () => ({ ok: false, message: 'Bluesky accounts cannot be connected yet.' }),
  createClient: () => {
    throw new Error('Bluesky accounts are not supported yet');
  },
  rules: NETWORK_RULES,
  reconcile: 'timeline',
  isDuplicateEvidence: () => false,
  oauth: null,
  refresh: null,
} satisfies ProviderDefinition;

import { z } from 'zod';
import type { ProviderDefinition } from '../definition';
import { NETWORK_RULES } from '../classify';
import { threadsMeta } from './meta';

// Placeholder until the Threads client lands (issue 13): the entry is complete, the client refuses.
export const threadsProvider = {
  ...threadsMeta,
  rateLimit: { max: 100, windowSeconds: 60 * 60 },
  connectSchema: z.object({}),
  verify: async () => ({ ok: false, message: 'Threads accounts cannot be connected yet.' }),
  createClient: () => {
    throw new Error('Threads accounts are not supported yet');
  },
  rules: NETWORK_RULES,
  reconcile: 'timeline',
  isDuplicateEvidence: () => false,
  oauth: null,
  refresh: null,
} satisfies ProviderDefinition;

import { z } from 'zod';
import { API_KEY_SCOPES, type ApiKeyScope } from '@/db/schema';

export { SCOPE_LABELS } from './scope-labels';

/** One scope or several (a checkbox group or a comma-separated list); at least one, no unknown ones, no repeats. */
export const scopesSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(
    z
      .array(z.enum(API_KEY_SCOPES, { error: `Scopes are ${API_KEY_SCOPES.join(', ')}` }))
      .min(1, 'Choose at least one scope'),
  )
  .transform((v) => [...new Set(v)] as ApiKeyScope[]);

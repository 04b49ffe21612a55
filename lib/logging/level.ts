import { LOG_LEVELS } from '@/lib/env';

type Level = (typeof LOG_LEVELS)[number];

/**
 * The level from LOG_LEVEL as the validated environment reads it: blank (as copied from .env.example) means
 * the default, never pino's "unknown level" crash at import. An invalid value also falls back here;
 * the environment check at start names it.
 */
export function logLevel(source: Record<string, string | undefined>): Level {
  const value = source.LOG_LEVEL?.trim();
  if (value && (LOG_LEVELS as readonly string[]).includes(value)) return value as Level;
  return source.NODE_ENV === 'test' ? 'silent' : 'info';
}

import pino from 'pino';

// Secrets never reach the log: these paths are censored wherever they appear.
/**
 * Errors are logged by type, code and the database's own message, never with the failed query's
 * parameters (drizzle puts them in err.message: post text, hashes, sealed credentials).
 */
function serializeError(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  const cause = (error as { cause?: { message?: string; code?: string; constraint_name?: string } }).cause;
  const isQueryError = error.constructor?.name === 'DrizzleQueryError';
  return {
    type: error.constructor?.name ?? 'Error',
    message: isQueryError ? `query failed: ${cause?.message ?? 'unknown'}` : error.message,
    code: cause?.code ?? (error as { code?: string }).code,
    constraint: cause?.constraint_name,
    stack: isQueryError ? undefined : error.stack,
  };
}

export const logger = pino({
  serializers: { err: serializeError },
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  redact: {
    paths: ['password', 'token', 'accessToken', 'authorization', 'credentials', '*.password', '*.token', '*.accessToken', '*.authorization', '*.credentials', 'headers.authorization'],
    censor: '[redacted]',
  },
});

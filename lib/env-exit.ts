import { getEnv, INVALID_ENVIRONMENT, type Env } from './env';

export function isInvalidEnvironment(error: unknown): error is Error {
  return error instanceof Error && error.name === INVALID_ENVIRONMENT;
}

/**
 * For process entry points (instrumentation, scripts): an invalid environment prints the short message
 * that names each variable and exits 1, instead of an uncaught error dumping transpiled source.
 */
export function exitOnInvalidEnvironment(error: unknown): void {
  if (!isInvalidEnvironment(error)) return;
  console.error(error.message);
  process.exit(1);
}

/** getEnv() for entry points: the validated environment, or the short message and exit 1. */
export function getEnvOrExit(): Env {
  try {
    return getEnv();
  } catch (error) {
    exitOnInvalidEnvironment(error);
    throw error;
  }
}

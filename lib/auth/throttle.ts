import type { Executor } from '@/db/client';
import { takeLoginAttempt } from '@/db/queries/login-attempts';
import { deleteLoginAttemptsBefore } from '@/db/queries/users';
import { addressNetwork, UNKNOWN_ADDRESS } from './client-address';
import { deleteInBatches } from '@/db/queries/batches';

export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Per email + IP: a guesser at one address stops here. */
export const MAX_FAILED_LOGINS = 10;
/** Per email + IPv6 /64: one subscriber's many addresses count as one guesser. */
export const MAX_FAILED_LOGINS_PER_NETWORK = 10;
/** Per IP across emails: password spraying (a few passwords against many emails) stops here. */
export const MAX_FAILED_LOGINS_PER_IP = 30;
/** Per IPv6 /64 across emails: room for an office sharing one /64, none for a sprayer hopping addresses in it. */
export const MAX_FAILED_LOGINS_PER_NETWORK_ANY_EMAIL = 60;
/**
 * Per email from everywhere only slows down, never refuses: a refusal there would let anyone lock any
 * user out (forged or many addresses). Past the free failures, each try waits a little longer, up to a cap.
 */
export const FREE_FAILURES_PER_EMAIL = 10;
export const EMAIL_DELAY_STEP_MS = 100;
export const EMAIL_DELAY_MAX_MS = 3_000;

export function emailDelayMs(failuresForEmail: number): number {
  return Math.min(
    EMAIL_DELAY_MAX_MS,
    Math.max(0, failuresForEmail - FREE_FAILURES_PER_EMAIL + 1) * EMAIL_DELAY_STEP_MS,
  );
}

export type SignInTicket = { refused: true } | { refused: false; attemptId: number; delayMs: number };

/**
 * Takes the limits for one sign-in attempt before its password is checked: counted and recorded in one
 * statement (rows, so they hold across instances), so parallel guesses cannot all pass a limit they share.
 */
export async function takeSignInAttempt(
  db: Executor,
  params: { email: string; ip: string; now?: Date },
): Promise<SignInTicket> {
  const since = new Date((params.now ?? new Date()).getTime() - FAILED_LOGIN_WINDOW_MS);
  const taken = await takeLoginAttempt(db, {
    email: params.email,
    ip: params.ip,
    network: addressNetwork(params.ip),
    since,
    limits: {
      perEmailAndAddress: MAX_FAILED_LOGINS,
      perEmailAndNetwork: MAX_FAILED_LOGINS_PER_NETWORK,
      perAddress: MAX_FAILED_LOGINS_PER_IP,
      perNetwork: MAX_FAILED_LOGINS_PER_NETWORK_ANY_EMAIL,
      acrossEmails: params.ip !== UNKNOWN_ADDRESS,
    },
  });
  if (taken.attemptId === null) return { refused: true };
  return { refused: false, attemptId: taken.attemptId, delayMs: emailDelayMs(taken.failuresForEmail) };
}

/** Deletes attempts older than the window in batches (housekeeping); returns how many. */
export async function pruneExpiredLoginAttempts(
  db: Executor,
  options: { now?: Date; batchSize?: number; maxBatches?: number } = {},
) {
  const before = new Date((options.now ?? new Date()).getTime() - FAILED_LOGIN_WINDOW_MS);
  return deleteInBatches((batchSize) => deleteLoginAttemptsBefore(db, { before, batchSize }), options);
}

import type { Executor } from '@/db/client';
import { countRecentFailedLogins, deleteLoginAttemptsBefore } from '@/db/queries/users';
import { UNKNOWN_ADDRESS } from './client-address';
import { deleteInBatches } from '@/lib/jobs/batches';

export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Per email + IP: a guesser at one address stops here. */
export const MAX_FAILED_LOGINS = 10;
/** Per IP across emails: password spraying (a few passwords against many emails) stops here. */
export const MAX_FAILED_LOGINS_PER_IP = 30;
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

export type LoginLimits = { refused: boolean; delayMs: number };

/** The limits for one sign-in attempt, from the failures recorded in the window (rows, so they hold across instances). */
export async function loginLimits(
  db: Executor,
  params: { email: string; ip: string; now?: Date },
): Promise<LoginLimits> {
  const since = new Date((params.now ?? new Date()).getTime() - FAILED_LOGIN_WINDOW_MS);
  const [fromThisIp, fromThisIpAnyEmail, fromAnywhere] = await Promise.all([
    countRecentFailedLogins(db, { email: params.email, ip: params.ip, since }),
    countRecentFailedLogins(db, { ip: params.ip, since }),
    countRecentFailedLogins(db, { email: params.email, since }),
  ]);
  // Attempts without a known address share one bucket: a per-IP refusal there would refuse everyone.
  const sprayed = params.ip !== UNKNOWN_ADDRESS && fromThisIpAnyEmail >= MAX_FAILED_LOGINS_PER_IP;
  return { refused: fromThisIp >= MAX_FAILED_LOGINS || sprayed, delayMs: emailDelayMs(fromAnywhere) };
}

/** Deletes attempts older than the window in batches (housekeeping); returns how many. */
export async function pruneExpiredLoginAttempts(
  db: Executor,
  options: { now?: Date; batchSize?: number; maxBatches?: number } = {},
) {
  const before = new Date((options.now ?? new Date()).getTime() - FAILED_LOGIN_WINDOW_MS);
  return deleteInBatches((batchSize) => deleteLoginAttemptsBefore(db, { before, batchSize }), options);
}

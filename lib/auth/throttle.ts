import type { Executor } from '@/db/client';
import { countRecentFailedLogins, recordLoginAttempt } from '@/db/queries/users';

export const MAX_FAILED_LOGINS = 10;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;

/** True once an email+IP pair has failed MAX_FAILED_LOGINS times in the window. */
export async function isLoginThrottled(db: Executor, params: { email: string; ip: string; now?: Date }) {
  const since = new Date((params.now ?? new Date()).getTime() - FAILED_LOGIN_WINDOW_MS);
  return (await countRecentFailedLogins(db, { email: params.email, ip: params.ip, since })) >= MAX_FAILED_LOGINS;
}

export { recordLoginAttempt };

import type { Executor } from '@/db/client';
import { countRecentFailedLogins } from '@/db/queries/users';

export const MAX_FAILED_LOGINS = 10;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Per email from any address: bounds guessing even by a client that forges X-Forwarded-For. */
export const MAX_FAILED_LOGINS_PER_EMAIL = 50;

/** True once an email+IP pair has failed MAX_FAILED_LOGINS times in the window, or the email 50 times from anywhere. */
export async function isLoginThrottled(db: Executor, params: { email: string; ip: string; now?: Date }) {
  const since = new Date((params.now ?? new Date()).getTime() - FAILED_LOGIN_WINDOW_MS);
  const [fromThisIp, fromAnywhere] = await Promise.all([
    countRecentFailedLogins(db, { email: params.email, ip: params.ip, since }),
    countRecentFailedLogins(db, { email: params.email, since }),
  ]);
  return fromThisIp >= MAX_FAILED_LOGINS || fromAnywhere >= MAX_FAILED_LOGINS_PER_EMAIL;
}

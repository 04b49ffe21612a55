'use server';

import { getDb } from '@/db/client';
import { bumpSessionVersion } from '@/db/queries/users';
import type { ActionState } from '@/lib/auth/action';
import { getUser } from '@/lib/auth/session';
import { logger } from '@/lib/logging/logger';

/**
 * Signs the caller out on every device: bumps their session version, so every session JWT issued before
 * (this browser's included) is refused on its next request. Only ever the caller's own sessions.
 */
export async function signOutEverywhereAction(): Promise<ActionState> {
  const user = await getUser();
  if (!user) return { ok: false, status: 401, message: 'Your session has ended. Sign in again.' };
  await bumpSessionVersion(getDb(), { userId: user.id });
  logger.info({ userId: user.id }, 'signed out everywhere');
  return { ok: true, message: 'Signed out on every device.' };
}

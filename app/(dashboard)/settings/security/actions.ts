'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { deleteAllSessions, deleteOtherSessions, deleteSession } from '@/db/queries/sessions';
import { bumpSessionVersion } from '@/db/queries/users';
import type { ActionState } from '@/lib/auth/action';
import { getSession, getUser } from '@/lib/auth/session';
import { logger } from '@/lib/logging/logger';

const SIGNED_OUT: ActionState = { ok: false, status: 401, message: 'Your session has ended. Sign in again.' };

/** The caller and their own session, from the server's check of the cookie: every action here starts from it. */
async function caller() {
  const [user, session] = await Promise.all([getUser(), getSession()]);
  return user && session?.sessionId ? { userId: user.id, sessionId: session.sessionId } : null;
}

const sessionIdSchema = z.object({ sessionId: z.uuid('Choose a session.') });

/** Signs out one of the caller's sessions (a lost phone, a shared computer); another user's id matches nothing. */
export async function signOutSessionAction(
  _previous: ActionState | undefined,
  formData: FormData,
): Promise<ActionState> {
  const me = await caller();
  if (!me) return SIGNED_OUT;
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const parsed = sessionIdSchema.safeParse({ sessionId: formData.get('sessionId') });
  if (!parsed.success) return { ok: false, status: 422, message: 'Choose a session to sign out.' };
  const ended = await deleteSession(getDb(), { sessionId: parsed.data.sessionId, userId: me.userId });
  if (!ended) return { ok: false, status: 404, message: 'That session has already ended.' };
  logger.info({ userId: me.userId }, 'signed out one session');
  revalidatePath('/settings/security');
  return { ok: true, message: 'Signed out.' };
}

/** Signs out every session of the caller except this one. */
export async function signOutOtherSessionsAction(): Promise<ActionState> {
  const me = await caller();
  if (!me) return SIGNED_OUT;
  const ended = await deleteOtherSessions(getDb(), { userId: me.userId, keepSessionId: me.sessionId });
  logger.info({ userId: me.userId, ended }, 'signed out other sessions');
  revalidatePath('/settings/security');
  return { ok: true, message: ended === 1 ? 'Signed out 1 other session.' : `Signed out ${ended} other sessions.` };
}

/**
 * Signs the caller out on every device: bumps their session version, so every session JWT issued before
 * (this browser's included) is refused on its next request, and deletes their session rows.
 */
export async function signOutEverywhereAction(): Promise<ActionState> {
  const user = await getUser();
  if (!user) return SIGNED_OUT;
  await bumpSessionVersion(getDb(), { userId: user.id });
  await deleteAllSessions(getDb(), { userId: user.id });
  logger.info({ userId: user.id }, 'signed out everywhere');
  return { ok: true, message: 'Signed out on every device.' };
}

import 'server-only';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { can, type Capability } from './can';
import { twoFactorEnrolmentDue } from './second-factor';
import { getUser, getWorkspace, type WorkspaceContext } from './session';

// The layout, the page and an action's gate may all ask: one query per request.
const enrolmentDue = cache((userId: string) => twoFactorEnrolmentDue(getDb(), userId));

export type WorkspaceGate =
  | { ok: true; context: WorkspaceContext }
  | { ok: false; status: 401 | 403; reason: 'signed_out' | 'enrol_two_factor'; message: string };

/**
 * For server actions and route handlers: the active workspace, refused (401) when signed out or in none, and
 * refused (403) while a workspace of the user requires two-factor sign-in they have not set up. Pages send such a
 * member to /two-factor (requirePageWorkspace); a direct POST must not do what the page would not let them reach.
 */
export const gateWorkspace = cache(async (): Promise<WorkspaceGate> => {
  const context = await getWorkspace();
  if (!context)
    return { ok: false, status: 401, reason: 'signed_out', message: 'Your session has ended. Sign in again.' };
  if (await enrolmentDue(context.user.id))
    return {
      ok: false,
      status: 403,
      reason: 'enrol_two_factor',
      message: 'A workspace you belong to requires two-factor sign-in. Set it up on the two-factor page first.',
    };
  return { ok: true, context };
});

/**
 * For pages: redirects to sign-in when signed out, and to the enrol page while a workspace of the user requires
 * two-factor sign-in they have not set up; returns the context and whether the role holds the capability.
 */
export async function requirePageWorkspace(capability: Capability = 'read') {
  const context = await getWorkspace();
  // Signed in but in no workspace (the last one deleted, or removed): a page that says so, not a sign-in loop.
  if (!context) redirect((await getUser()) ? '/no-workspace' : '/signin');
  if (await enrolmentDue(context.user.id)) redirect('/two-factor');
  return { ...context, allowed: can(context.role, capability) };
}

'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { formDataToObject, type ActionState } from '@/lib/auth/action';
import { hashPassword } from '@/lib/auth/password';
import { checkNewPassword } from '@/lib/auth/password-policy';
import { getUser } from '@/lib/auth/session';
import { rememberSsoInvitation } from '@/lib/auth/sso-invitation';
import { setWorkspaceCookie } from '@/lib/auth/workspace-cookie';
import { getEnv } from '@/lib/env';
import { ACCEPT_REFUSALS, acceptInvitation, describeInvitation } from '@/lib/teams/invitations';

const signUpSchema = z.object({
  token: z.string().max(200),
  name: z
    .string()
    .trim()
    .min(1, 'Enter your name')
    .max(80, 'At most 80 characters')
    // Postgres text cannot hold U+0000: refused here, not as a 500 from the insert.
    .refine((v) => !v.includes('\u0000'), 'Must not contain the NUL character (U+0000)'),
  password: z
    .string()
    .max(200, 'At most 200 characters')
    .superRefine((value, ctx) => {
      const problem = checkNewPassword(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});

/**
 * Accepts an invitation: the signed-in user joins (their email must be the invited one), or a new user signs up
 * with a name and password. A public endpoint: the token is the only authority, checked in lib/teams/invitations.ts.
 */
export async function acceptInvitationAction(
  _previous: ActionState | undefined,
  formData: FormData,
): Promise<ActionState> {
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const user = await getUser();
  const input = formDataToObject(formData);
  let result;
  if (user) {
    const token = typeof input.token === 'string' ? input.token : '';
    result = await acceptInvitation(getDb(), { token, signedIn: { id: user.id, email: user.email } });
  } else {
    const parsed = signUpSchema.safeParse(input);
    if (!parsed.success)
      return {
        ok: false,
        status: 422,
        errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
        message: 'Please fix the highlighted fields.',
      };
    const passwordHash = await hashPassword(parsed.data.password);
    result = await acceptInvitation(getDb(), {
      token: parsed.data.token,
      signedIn: null,
      signUp: { name: parsed.data.name, passwordHash },
    });
  }
  if (!result.ok)
    return { ok: false, status: result.reason === 'invalid' ? 404 : 409, message: ACCEPT_REFUSALS[result.reason] };
  if (user) {
    await setWorkspaceCookie(result.workspaceSlug);
    redirect('/queue');
  }
  // The new user signs in with the password they just chose (the form does it: next-auth's sign-in route); their
  // only workspace is this one. No cookie here: setting one re-renders the page (now "used") under the form.
  return { ok: true, message: 'Account created. Signing you in…' };
}

/**
 * "Continue with single sign-on": checks the link is open and keeps it in a sealed, short-lived cookie for the OIDC
 * callback, where it is accepted once the issuer proves the invited email (lib/auth/sso-invitation.ts). The form
 * then starts `signIn('oidc')`. Nothing is accepted here: a public endpoint that only remembers a valid link.
 */
export async function startSsoInvitationAction(
  _previous: ActionState | undefined,
  formData: FormData,
): Promise<ActionState> {
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  if (!getEnv().oidc) return { ok: false, status: 404, message: 'Single sign-on is not set up here.' };
  const token = formData.get('token');
  if (typeof token !== 'string' || token.length > 200)
    return { ok: false, status: 404, message: ACCEPT_REFUSALS.invalid };
  const view = await describeInvitation(getDb(), token);
  if (!view.open)
    return { ok: false, status: view.reason === 'invalid' ? 404 : 409, message: ACCEPT_REFUSALS[view.reason] };
  await rememberSsoInvitation(token);
  return { ok: true, message: 'Continuing to single sign-on…' };
}

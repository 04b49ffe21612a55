import Link from 'next/link';
import {
  AcceptInvitationForm,
  ContinueWithSsoForm,
  JoinWorkspaceForm,
} from '@/components/teams/accept-invitation-form';
import { getDb } from '@/db/client';
import { getUser } from '@/lib/auth/session';
import { SSO_INVITATION_ERRORS, type SsoInvitationError } from '@/lib/auth/sso-invitation';
import { getEnv } from '@/lib/env';
import { ACCEPT_REFUSALS, describeInvitation } from '@/lib/teams/invitations';
import { acceptInvitationAction, startSsoInvitationAction } from './actions';

export const metadata = { title: 'Invitation' };
export const dynamic = 'force-dynamic';

/**
 * An invitation link: sign up (new address), sign in first (existing account), join as the signed-in user, or
 * continue with single sign-on when OIDC is set up (`?error=` says why a single sign-on was refused).
 */
export default async function InvitationPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const [view, user] = await Promise.all([describeInvitation(getDb(), token), getUser()]);
  const oidc = getEnv().oidc;
  const ssoError = typeof query.error === 'string' && query.error in SSO_INVITATION_ERRORS ? query.error : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <p className="text-2xl font-bold tracking-tight text-indigo-700">Semel</p>
        {!view.open ? (
          <>
            <h1 className="mt-4 text-lg font-semibold">Invitation</h1>
            <p role="alert" className="mt-2 text-sm text-rose-700">
              {ACCEPT_REFUSALS[view.reason]}
            </p>
          </>
        ) : (
          <>
            <h1 className="mt-4 text-lg font-semibold">Join {view.workspaceName}</h1>
            <p className="mb-6 mt-1 text-sm text-slate-600">
              You are invited as <strong className="font-semibold text-slate-900">{view.role}</strong> ({view.email}).
            </p>
            {user ? (
              user.email === view.email ? (
                <JoinWorkspaceForm token={token} action={acceptInvitationAction} />
              ) : (
                <p role="alert" className="text-sm text-rose-700">
                  {ACCEPT_REFUSALS.email_mismatch}{' '}
                  <Link href="/signout" className="font-semibold text-indigo-700 underline">
                    Sign out
                  </Link>
                </p>
              )
            ) : (
              <>
                {ssoError && (
                  <p role="alert" className="mb-4 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
                    {SSO_INVITATION_ERRORS[ssoError as SsoInvitationError]}
                  </p>
                )}
                {view.accountExists ? (
                  <Link
                    href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`}
                    className="inline-block rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
                  >
                    Sign in to accept
                  </Link>
                ) : (
                  <AcceptInvitationForm token={token} email={view.email} action={acceptInvitationAction} />
                )}
                {oidc && (
                  <div className="mt-6 border-t border-slate-200 pt-6">
                    <ContinueWithSsoForm token={token} name={oidc.name} action={startSsoInvitationAction} />
                  </div>
                )}
              </>
            )}
          </>
        )}
      </div>
    </main>
  );
}

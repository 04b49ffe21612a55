import Link from 'next/link';
import { PasskeyList } from '@/components/settings/passkey-list';
import { SessionList } from '@/components/settings/session-list';
import { SignOutEverywhere } from '@/components/settings/sign-out-everywhere';
import { ToggleSettingForm } from '@/components/settings/toggle-setting-form';
import { DisableTotpForm, EmailChangeForm } from '@/components/settings/two-factor-forms';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listPasskeys } from '@/db/queries/passkeys';
import { listLiveSessions } from '@/db/queries/sessions';
import { countUnusedRecoveryCodes, getWorkspaceRequireTwoFactor, hasEnabledTotp } from '@/db/queries/two-factor';
import { deviceLabel } from '@/lib/auth/device-label';
import { getSession } from '@/lib/auth/session';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { signOutEverywhereAction, signOutOtherSessionsAction, signOutSessionAction } from './actions';
import { disableTotpAction, requestEmailChangeAction, setRequireTwoFactorAction } from './two-factor-actions';
import { passkeyRegistrationOptionsAction, registerPasskeyAction, removePasskeyAction } from './passkey-actions';

export const metadata = { title: 'Security' };

export default async function SecuritySettingsPage() {
  const { user, workspace, allowed: isAdmin } = await requirePageWorkspace('manageWorkspace');
  const session = await getSession();
  const env = getEnv();
  const db = getDb();
  const [rows, totpOn, recoveryLeft, requireTwoFactor] = await Promise.all([
    listLiveSessions(db, { userId: user.id, idleHours: env.SESSION_IDLE_HOURS }),
    hasEnabledTotp(db, { userId: user.id }),
    countUnusedRecoveryCodes(db, { userId: user.id }),
    getWorkspaceRequireTwoFactor(db, { workspaceId: workspace.id }),
  ]);
  const passkeys = (await listPasskeys(db, { userId: user.id })).map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  }));
  const sessions = rows
    .map((r) => ({
      id: r.id,
      device: deviceLabel(r.userAgent),
      address: r.address,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      current: r.id === session?.sessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
  return (
    <>
      <PageHeader
        title="Security"
        description={`Where you are signed in. A session ends when you sign out, after ${env.SESSION_IDLE_HOURS} h without use, and ${env.SESSION_MAX_DAYS} days after sign-in.`}
      />
      <section aria-labelledby="sessions" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="sessions" className="mb-4 text-base font-semibold">
          Your sessions
        </h2>
        <SessionList sessions={sessions} signOutOne={signOutSessionAction} signOutOthers={signOutOtherSessionsAction} />
      </section>
      <section aria-labelledby="passkeys" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="passkeys" className="mb-2 text-base font-semibold">
          Passkeys
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          Sign in without a password, with this device&apos;s fingerprint, face or PIN, or a security key. A passkey is
          also a second factor: after your password, sign-in asks for one.
        </p>
        <PasskeyList
          passkeys={passkeys}
          options={passkeyRegistrationOptionsAction}
          register={registerPasskeyAction}
          remove={removePasskeyAction}
        />
      </section>
      <section aria-labelledby="everywhere" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="everywhere" className="mb-2 text-base font-semibold">
          Sign out everywhere
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          Signs you out on every browser and device at once, this one included.
        </p>
        <SignOutEverywhere action={signOutEverywhereAction} />
      </section>
      <section aria-labelledby="two-factor" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="two-factor" className="mb-2 text-base font-semibold">
          Two-factor sign-in
        </h2>
        {totpOn ? (
          <>
            <p className="mb-3 text-sm text-slate-600" data-testid="two-factor-status">
              On: sign-in asks for a code from your authenticator app. {recoveryLeft} of 10 recovery codes left.
            </p>
            <DisableTotpForm action={disableTotpAction} />
          </>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600" data-testid="two-factor-status">
              {passkeys.length > 0
                ? 'On with your passkeys: after your password, sign-in asks for one. You can add an authenticator app as well.'
                : 'Off. With an authenticator app on your phone (or a passkey, above), sign-in also asks for a second step after your password.'}
            </p>
            <Link
              href="/two-factor"
              className="inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
            >
              {passkeys.length > 0 ? 'Add an authenticator app' : 'Set up two-factor sign-in'}
            </Link>
          </>
        )}
        {isAdmin && (
          <ToggleSettingForm
            name="requireTwoFactor"
            checked={requireTwoFactor}
            canEdit={isAdmin}
            action={setRequireTwoFactorAction}
            label={`Require two-factor sign-in for members of ${workspace.name}`}
            description="Members without a second factor are asked to set one up before they can use the workspace."
            submitLabel="Save two-factor rule"
          />
        )}
      </section>
      <section aria-labelledby="email" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="email" className="mb-2 text-base font-semibold">
          Email address
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          You sign in with {user.email}. To change it, we send a link to the new address; it changes when you follow it.
        </p>
        <EmailChangeForm action={requestEmailChangeAction} />
      </section>
    </>
  );
}

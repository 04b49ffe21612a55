import { PasskeyList } from '@/components/settings/passkey-list';
import { SessionList } from '@/components/settings/session-list';
import { SignOutEverywhere } from '@/components/settings/sign-out-everywhere';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listPasskeys } from '@/db/queries/passkeys';
import { listLiveSessions } from '@/db/queries/sessions';
import { deviceLabel } from '@/lib/auth/device-label';
import { getSession, requirePageWorkspace } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { signOutEverywhereAction, signOutOtherSessionsAction, signOutSessionAction } from './actions';
import { passkeyRegistrationOptionsAction, registerPasskeyAction, removePasskeyAction } from './passkey-actions';

export const metadata = { title: 'Security' };

export default async function SecuritySettingsPage() {
  const { user } = await requirePageWorkspace();
  const session = await getSession();
  const env = getEnv();
  const rows = await listLiveSessions(getDb(), { userId: user.id, idleHours: env.SESSION_IDLE_HOURS });
  const passkeys = (await listPasskeys(getDb(), { userId: user.id })).map((p) => ({
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
          Sign in without a password, with this device&apos;s fingerprint, face or PIN, or a security key.
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
    </>
  );
}

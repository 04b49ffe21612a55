import Link from 'next/link';
import { redirect } from 'next/navigation';
import QRCode from 'qrcode';
import {
  passkeyRegistrationOptionsAction,
  registerPasskeyAction,
  removePasskeyAction,
} from '@/app/(dashboard)/settings/security/passkey-actions';
import { TotpEnrolForm } from '@/components/auth/totp-enrol-form';
import { PasskeyList } from '@/components/settings/passkey-list';
import { SignOutButton } from '@/components/shell/sign-out-button';
import { getDb } from '@/db/client';
import { listPasskeys } from '@/db/queries/passkeys';
import { twoFactorRequiredForUser } from '@/db/queries/two-factor';
import { DEFAULT_AFTER_SIGN_IN } from '@/lib/auth/redirect';
import { getUser } from '@/lib/auth/session';
import { totpUri } from '@/lib/auth/totp';
import { pendingTotpSecret } from '@/lib/auth/two-factor';
import { getEnv } from '@/lib/env';
import { confirmTotpAction } from './actions';

export const metadata = { title: 'Set up two-factor sign-in' };

/**
 * Enrolling TOTP or a passkey, outside the dashboard layout: a member of a workspace that requires two-factor sign-in
 * is sent here from every dashboard page until either is set up (lib/auth/session.ts), and can still sign out.
 */
export default async function TwoFactorSetupPage() {
  const user = await getUser();
  if (!user) redirect('/signin?callbackUrl=/two-factor');
  const db = getDb();
  const [secret, required, rows] = await Promise.all([
    pendingTotpSecret(db, { userId: user.id, encryptionKey: getEnv().APP_ENCRYPTION_KEY }),
    twoFactorRequiredForUser(db, { userId: user.id }),
    listPasskeys(db, { userId: user.id }),
  ]);
  const passkeys = rows.map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  }));
  // Rendered on the server: the secret reaches only this page, never a third-party QR service.
  const qr = secret ? await QRCode.toString(totpUri(secret, user.email), { type: 'svg', margin: 1 }) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-8">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <div className="flex items-start justify-between gap-4">
          <h1 className="text-xl font-bold tracking-tight text-slate-900">Set up two-factor sign-in</h1>
          <SignOutButton />
        </div>
        {required && secret && passkeys.length === 0 && (
          <p role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Your workspace requires two-factor sign-in. Set up an authenticator app or add a passkey to continue.
          </p>
        )}
        {secret && passkeys.length > 0 && (
          <div role="status" className="mt-3 space-y-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            <p>Two-factor sign-in is on with your passkeys: after your password, sign-in asks for one.</p>
            <Link href={DEFAULT_AFTER_SIGN_IN} className="font-medium text-emerald-900 underline">
              Continue
            </Link>
          </div>
        )}
        {!secret ? (
          <div className="mt-4 space-y-3 text-sm text-slate-700">
            <p>Two-factor sign-in is already on for your account.</p>
            <Link href="/settings/security" className="text-indigo-700 underline">
              Back to Settings → Security
            </Link>
          </div>
        ) : (
          <div className="mt-4 space-y-4 text-sm text-slate-700">
            <p>
              Scan this QR code with an authenticator app (1Password, Google Authenticator, Aegis…), then enter the
              6-digit code it shows.
            </p>
            {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG data URL, nothing to optimise */}
            <img
              src={`data:image/svg+xml;base64,${Buffer.from(qr!).toString('base64')}`}
              alt="QR code for your authenticator app"
              width={192}
              height={192}
              className="mx-auto rounded-md ring-1 ring-slate-200"
            />
            <div>
              <p id="secret-label">Or enter this key by hand:</p>
              <code
                aria-labelledby="secret-label"
                className="mt-1 block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900"
                data-testid="totp-secret"
              >
                {secret}
              </code>
            </div>
            <TotpEnrolForm action={confirmTotpAction} />
            <section aria-labelledby="passkey-heading" className="border-t border-slate-200 pt-4">
              <h2 id="passkey-heading" className="text-base font-semibold text-slate-900">
                Or add a passkey
              </h2>
              <p className="mb-3 mt-1">This device&apos;s fingerprint, face or PIN, or a security key.</p>
              <PasskeyList
                passkeys={passkeys}
                options={passkeyRegistrationOptionsAction}
                register={registerPasskeyAction}
                remove={removePasskeyAction}
              />
            </section>
          </div>
        )}
      </div>
    </main>
  );
}

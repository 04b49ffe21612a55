import type { SecondFactorKind } from '@/lib/auth/sign-in-errors';
import { Button } from '@/components/ui/button';

/**
 * The second step after a right password: the code field, "Use a passkey", or both. It takes the focus when it
 * appears (the code field when there is one), so a keyboard or screen-reader user lands on what to do next.
 */
export function SecondFactorStep({
  factors,
  pending,
  waitingForPasskey,
  onPasskey,
}: {
  factors: SecondFactorKind[];
  pending: boolean;
  waitingForPasskey: boolean;
  onPasskey: () => void;
}) {
  const totp = factors.includes('totp');
  const passkey = factors.includes('passkey');
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium">Second step</legend>
      {totp && (
        <div>
          <label htmlFor="code" className="block text-sm font-medium">
            Authentication code
          </label>
          <input
            id="code"
            name="code"
            type="text"
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            required
            aria-describedby="code-hint"
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
          />
          <p id="code-hint" className="mt-1 text-xs text-slate-600">
            From your authenticator app, or one of your recovery codes.
          </p>
        </div>
      )}
      {totp && passkey && <p className="text-center text-xs text-slate-600">or</p>}
      {passkey && (
        <div>
          <Button
            type="button"
            variant="secondary"
            className="w-full"
            autoFocus={!totp}
            disabled={pending}
            aria-describedby="passkey-hint"
            onClick={onPasskey}
          >
            {waitingForPasskey ? 'Waiting for the passkey…' : 'Use a passkey'}
          </Button>
          <p id="passkey-hint" className="mt-1 text-xs text-slate-600">
            One of the passkeys you added on Settings → Security.
          </p>
        </div>
      )}
    </fieldset>
  );
}

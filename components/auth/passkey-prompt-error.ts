import { WebAuthnError } from '@simplewebauthn/browser';

/** Why the browser's passkey prompt ended without a passkey, in words (its own errors name the API, not the problem). */
export function passkeyPromptError(error: unknown): string {
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This passkey is already registered.';
  const name = (error as Error | undefined)?.name;
  if (name === 'NotAllowedError') return 'The passkey prompt was closed or timed out.';
  if (name === 'SecurityError') return 'Passkeys need the app at its configured address (NEXTAUTH_URL).';
  return 'This browser could not use a passkey.';
}

import type { EndpointsProblem } from './endpoints';
import type { StateRefusal } from './state';

/** Why a connect did not happen; the accounts page shows the message (codes only travel in the URL, never text). */
export type OAuthProblem =
  | EndpointsProblem
  | StateRefusal
  | 'signed_out'
  | 'forbidden'
  | 'unknown_network'
  | 'bad_callback'
  | 'denied'
  | 'platform_error'
  | 'exchange_failed'
  | 'identity_failed'
  | 'failed';

export const OAUTH_PROBLEM_MESSAGES: Record<OAuthProblem, string> = {
  no_oauth: 'This network does not connect through sign-in: use its connect form.',
  not_configured: 'Sign-in with this network is not set up on this server (its client id is blank).',
  sandbox_off: 'The sandbox network is switched off on this server (SANDBOX_ENABLED).',
  unknown_state: 'That sign-in link is not one this server started. Start the connect again.',
  state_used: 'That sign-in was already completed (each one works once). Start the connect again if needed.',
  state_expired: 'That sign-in took longer than ten minutes and expired. Start the connect again.',
  other_user: 'That sign-in was started by someone else. Start your own connect.',
  other_workspace: 'That sign-in was started in another workspace. Switch back to it, or start again here.',
  other_network: 'That sign-in was started for another network. Start the connect again.',
  signed_out: 'Sign in, then start the connect again.',
  forbidden: 'Only workspace admins can connect accounts.',
  unknown_network: 'Unknown network.',
  bad_callback: 'The network sent back an incomplete answer. Start the connect again.',
  denied: 'Access was denied on the network’s consent page: nothing was connected.',
  platform_error: 'The network refused the sign-in: nothing was connected.',
  exchange_failed: 'The network did not accept the sign-in code: nothing was connected. Start the connect again.',
  identity_failed: 'The new token could not read the account it belongs to: nothing was connected.',
  failed: 'The connect failed unexpectedly: nothing was connected. Try again.',
};

export function isOAuthProblem(value: string): value is OAuthProblem {
  return Object.hasOwn(OAUTH_PROBLEM_MESSAGES, value);
}

import type { WhoAmIResult } from './types';

/**
 * What a failed connection check tells the admin: the class of failure only. The platform's own text is
 * never echoed: with a base URL of the admin's choosing it could be an internal service's answer.
 */
const FAILURE_BY_RULE: Record<string, string> = {
  'outbound-refused':
    'the address is on a private or internal network and is not called (a self-hoster can allow it with OUTBOUND_ALLOWED_HOSTS)',
  'invalid-base-url': 'the URL is not usable',
  'connection-not-established': 'could not connect to the platform',
  'tls-handshake-failed': 'the TLS handshake with the platform failed',
  'timeout-without-response': 'the platform did not answer in time',
  'connection-reset': 'the platform closed the connection',
  'network-error-after-send': 'a network error',
  'success-body-lost': 'the answer was cut off or too large',
  'success-without-id': 'the answer is not an account',
  'not-an-account': 'the answer is not an account',
  'not-an-instance': 'the server does not say which domain its accounts are on (/api/v1/instance)',
  unauthorized: 'the platform rejected the access token (401)',
  forbidden: 'the platform refused access (403)',
  'not-found': 'nothing answers at this URL or for this user (404): check the URL',
  redirected: 'the platform redirected the request: check the URL',
  'rate-limited': 'the platform is rate limiting us (429): try again later',
};

export function connectionCheckFailure(result: Extract<WhoAmIResult, { ok: false }>): string {
  const known = FAILURE_BY_RULE[result.rule];
  if (known) return `Connection check failed: ${known}.`;
  return `Connection check failed: ${result.httpStatus ? `the platform answered HTTP ${result.httpStatus}` : 'unexpected answer'}.`;
}

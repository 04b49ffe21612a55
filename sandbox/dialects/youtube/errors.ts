// Google's JSON error body on every API failure (developers.google.com/youtube/v3/docs/errors):
// `{ error: { code, message, errors: [{ message, domain, reason }] } }`; the `reason` says which error it is.

export function googleError(status: number, reason: string, message: string, domain = 'youtube.api'): Response {
  return new Response(JSON.stringify({ error: { code: status, message, errors: [{ message, domain, reason }] } }), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  });
}

export const googleJson = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
  });

export const unauthorized = () =>
  googleError(401, 'authError', 'Request had invalid authentication credentials.', 'global');

export const quotaExceeded = () =>
  googleError(
    403,
    'quotaExceeded',
    'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
    'youtube.quota',
  );

export const rateLimitExceeded = () =>
  googleError(429, 'rateLimitExceeded', 'The request cannot be completed: too many requests.', 'usageLimits');

export const backendError = (status: number) => googleError(status, 'backendError', 'Backend Error', 'global');

export const badRequest = (reason: string, message: string) => googleError(400, reason, message, 'youtube.video');

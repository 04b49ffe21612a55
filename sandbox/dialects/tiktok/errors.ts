import { randomBytes } from 'node:crypto';

// TikTok's envelope on every answer (developers.tiktok.com/doc/tiktok-api-v2-error-handling):
// `{ data, error: { code, message, log_id } }`, `code` "ok" on success; errors carry an HTTP status too.

const logId = () =>
  `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(9).toString('hex').toUpperCase()}`;

export function tiktokJson(status: number, data: unknown, error: { code: string; message: string } = ok): Response {
  // Raw numbers (int64 ids) are marked by their toJSON as "\u0000digits\u0000": written unquoted here.
  const text = JSON.stringify({ data, error: { ...error, log_id: logId() } }).replace(/"\\u0000(\d+)\\u0000"/g, '$1');
  return new Response(text, {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  });
}

const ok = { code: 'ok', message: '' };

export const tiktokOk = (data: unknown) => tiktokJson(200, data);

export const tiktokError = (status: number, code: string, message: string) => tiktokJson(status, {}, { code, message });

export const invalidToken = () =>
  tiktokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');

export const invalidParams = (message: string) => tiktokError(400, 'invalid_params', message);

export const rateLimitExceeded = () =>
  tiktokError(429, 'rate_limit_exceeded', 'API rate limit exceeded, please retry the request later.');

export const internalError = (status: number) =>
  tiktokError(status, 'internal_error', 'Something went wrong. Please try again later.');

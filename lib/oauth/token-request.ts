import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { sendOnce } from '@/lib/net/send';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { AccountCredentials } from '@/lib/providers/types';
import type { OAuthClient } from './endpoints';

export type TokenResult =
  | { ok: true; credentials: AccountCredentials }
  /** `rejected`: the server refused the grant (400/401: a bad, used, expired or revoked code or token). */
  | { ok: false; rejected: boolean; reason: string; httpStatus?: number };

const TOKEN_TIMEOUT_MS = 10_000;

/**
 * One call to a token endpoint (RFC 6749 §4.1.3, §6), form-encoded, through `sendOnce` and the outbound guard,
 * never retried: a refresh rotates the refresh token, so a blind resend would spend it twice. The client secret
 * goes in HTTP Basic (a confidential client, as X asks); a public client sends its id in the body only.
 * Neither the secret nor any token appears in the result's reason.
 */
export async function requestTokens(input: {
  tokenUrl: string;
  client: OAuthClient;
  form: Record<string, string>;
  /** The network's names for the client (OAuthConfig.clientParams). */
  clientParams?: { id: string; secretInBody: boolean };
  outbound?: OutboundPolicy;
  send?: ProviderTransport;
  /** Kept when the answer carries no new refresh token (a server that does not rotate). */
  previousRefreshToken?: string;
  timeoutMs?: number;
  now?: () => Date;
}): Promise<TokenResult> {
  const { client } = input;
  const headers: Record<string, string> = {};
  const names = input.clientParams ?? { id: 'client_id', secretInBody: false };
  const secretField: Record<string, string> =
    names.secretInBody && client.clientSecret ? { client_secret: client.clientSecret } : {};
  if (client.clientSecret && !names.secretInBody) {
    const basic = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  const raw = await (input.send ?? sendOnce)({
    method: 'POST',
    url: input.tokenUrl,
    headers,
    form: { ...input.form, [names.id]: client.clientId, ...secretField },
    outbound: input.outbound,
    timeoutMs: input.timeoutMs ?? TOKEN_TIMEOUT_MS,
  });
  if (raw.type !== 'response')
    return {
      ok: false,
      rejected: false,
      reason: `The token endpoint could not be reached (${raw.type === 'error' ? (raw.code ?? raw.name) : 'answer cut off'}).`,
    };
  const body = (raw.body && typeof raw.body === 'object' ? raw.body : {}) as Record<string, unknown>;
  if (raw.status === 400 || raw.status === 401) {
    const error = typeof body.error === 'string' ? body.error.slice(0, 100) : `HTTP ${raw.status}`;
    return { ok: false, rejected: true, httpStatus: raw.status, reason: `The platform refused the grant (${error}).` };
  }
  if (raw.status < 200 || raw.status >= 300)
    return { ok: false, rejected: false, httpStatus: raw.status, reason: `The token endpoint answered ${raw.status}.` };
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || accessToken.length === 0 || String(body.token_type).toLowerCase() !== 'bearer')
    return {
      ok: false,
      rejected: false,
      httpStatus: raw.status,
      reason: 'The token endpoint answered without a bearer access token.',
    };
  const refreshToken = typeof body.refresh_token === 'string' ? body.refresh_token : input.previousRefreshToken;
  const expiresIn = Number(body.expires_in);
  const now = (input.now ?? (() => new Date()))();
  return {
    ok: true,
    credentials: {
      accessToken,
      ...(refreshToken ? { refreshToken } : {}),
      ...(Number.isFinite(expiresIn) && expiresIn > 0
        ? { expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString() }
        : {}),
    },
  };
}

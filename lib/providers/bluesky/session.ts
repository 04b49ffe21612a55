import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import type { AccountCredentials } from '../types';
import { classifyBluesky } from './classifier';

// App-password sessions (com.atproto.server.createSession / refreshSession). The access JWT lives about two
// hours, the refresh JWT about ninety days (packages/pds/src/account-manager/helpers/auth.ts); both are sealed
// with the app password, which opens a new session when the refresh token is gone too.

export type SessionResult =
  | {
      ok: true;
      did: string;
      handle: string;
      /** The account's own PDS from its DID document, when the session was opened through another host (an entryway). */
      pdsUrl: string | null;
      /** false: the account is deactivated, suspended or taken down (`status` says which). */
      active: boolean;
      status: string | null;
      credentials: AccountCredentials;
    }
  /** `refused`: the PDS answered and turned the credentials down (not a network failure, a 429 or a 5xx). */
  | { ok: false; refused: boolean; rule: string; reason: string; httpStatus?: number };

type Target = { base: string; outbound?: OutboundPolicy; send: ProviderTransport };
type CallOptions = { timeoutMs?: number; signal?: AbortSignal };

const DEFAULT_ACCESS_LIFETIME_MS = 2 * 3_600_000;

export function openSession(
  target: Target,
  login: { identifier: string; password: string },
  options: CallOptions = {},
): Promise<SessionResult> {
  return call(
    target,
    {
      nsid: 'com.atproto.server.createSession',
      json: { identifier: login.identifier, password: login.password },
      refused: 'The PDS did not accept this identifier and app password.',
    },
    login,
    options,
  );
}

/** Renews a session with its refresh JWT (rotated: the answer carries a new one). */
export function renewSession(
  target: Target,
  refreshJwt: string,
  login: { identifier?: string; password?: string },
  options: CallOptions = {},
): Promise<SessionResult> {
  return call(
    target,
    {
      nsid: 'com.atproto.server.refreshSession',
      headers: { authorization: `Bearer ${refreshJwt}` },
      refused: 'The PDS refused the session’s refresh token (expired or revoked).',
    },
    login,
    options,
  );
}

async function call(
  target: Target,
  request: { nsid: string; json?: unknown; headers?: Record<string, string>; refused: string },
  login: { identifier?: string; password?: string },
  options: CallOptions,
): Promise<SessionResult> {
  const raw = await target.send({
    method: 'POST',
    url: `${target.base}/xrpc/${request.nsid}`,
    json: request.json,
    headers: request.headers,
    outbound: target.outbound,
    ...options,
  });
  const body = raw.type === 'response' ? asRecord(raw.body) : {};
  const accessJwt = asString(body.accessJwt);
  const refreshJwt = asString(body.refreshJwt);
  const did = asString(body.did);
  if (raw.type === 'response' && raw.status === 200 && accessJwt && refreshJwt && did?.startsWith('did:')) {
    return {
      ok: true,
      did,
      handle: asString(body.handle) ?? did,
      pdsUrl: pdsEndpoint(body.didDoc),
      active: body.active !== false,
      status: asString(body.status) ?? null,
      credentials: {
        accessToken: accessJwt,
        refreshToken: refreshJwt,
        expiresAt: jwtExpiry(accessJwt).toISOString(),
        ...(login.identifier ? { identifier: login.identifier } : {}),
        ...(login.password ? { appPassword: login.password } : {}),
      },
    };
  }
  const classification = classifyBluesky(raw);
  const status = raw.type === 'error' ? undefined : raw.status;
  // 401 (wrong identifier or password, account taken down) and 400 (a refresh token expired, revoked or
  // malformed) are the PDS turning the credentials down; a 429, a 5xx or no answer says nothing about them.
  const refused = status === 401 || status === 400;
  return {
    ok: false,
    refused,
    rule: classification.rule,
    reason: refused ? request.refused : classification.reason,
    httpStatus: status,
  };
}

/** When a JWT expires (its `exp`), or two hours from now when it does not say. */
export function jwtExpiry(jwt: string, now = new Date()): Date {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    const exp = asRecord(payload).exp;
    if (typeof exp === 'number' && Number.isFinite(exp) && exp > 0) return new Date(exp * 1000);
  } catch {
    // not a JWT we can read: fall through to the default lifetime
  }
  return new Date(now.getTime() + DEFAULT_ACCESS_LIFETIME_MS);
}

/** The `#atproto_pds` service of a DID document (https://atproto.com/specs/did). */
function pdsEndpoint(didDoc: unknown): string | null {
  const services = asRecord(didDoc).service;
  if (!Array.isArray(services)) return null;
  const pds = services
    .map(asRecord)
    .find((s) => typeof s.id === 'string' && s.id.endsWith('#atproto_pds') && s.type === 'AtprotoPersonalDataServer');
  const endpoint = asString(pds?.serviceEndpoint);
  return endpoint && /^https:\/\//.test(endpoint) ? endpoint.replace(/\/+$/, '') : null;
}

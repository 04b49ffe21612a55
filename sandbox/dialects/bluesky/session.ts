import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SandboxAccount, SandboxStore } from '@/sandbox/store/types';

// Sessions of the sandbox's Bluesky dialect, shaped like a PDS's: an access JWT (`at+jwt`, scope
// com.atproto.access, two hours) and a refresh JWT (`refresh+jwt`, scope com.atproto.refresh, ninety days),
// both about the account's DID. The sandbox stores no session: each JWT is signed (HS256) with a key derived
// from the hash of the account's token, which is its app password here, so a new app password ends every
// session. Unlike a PDS, a used refresh token is not revoked (rotation is not emulated).

export const ACCESS_LIFETIME_S = 2 * 60 * 60;
export const REFRESH_LIFETIME_S = 90 * 24 * 60 * 60;
const AUDIENCE = 'did:web:sandbox.semel.invalid';
const SCOPES = { access: 'com.atproto.access', refresh: 'com.atproto.refresh' } as const;
const TYPES = { access: 'at+jwt', refresh: 'refresh+jwt' } as const;
type Kind = keyof typeof SCOPES;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sign = (input: string, tokenHash: string) =>
  createHmac('sha256', `semel-sandbox-bluesky-session:${tokenHash}`).update(input).digest();

function jwt(kind: Kind, did: string, tokenHash: string, nowS: number): string {
  const lifetime = kind === 'access' ? ACCESS_LIFETIME_S : REFRESH_LIFETIME_S;
  const head = `${b64({ typ: TYPES[kind], alg: 'HS256' })}.${b64({
    scope: SCOPES[kind],
    sub: did,
    aud: AUDIENCE,
    iat: nowS,
    exp: nowS + lifetime,
    ...(kind === 'refresh' ? { jti: randomUUID() } : {}),
  })}`;
  return `${head}.${sign(head, tokenHash).toString('base64url')}`;
}

/** A new session for a DID, signed with the hash of its account's token; `now` lets tests make expired ones. */
export function issueSandboxSession(
  did: string,
  tokenHash: string,
  now = new Date(),
): { accessJwt: string; refreshJwt: string } {
  const nowS = Math.floor(now.getTime() / 1000);
  return { accessJwt: jwt('access', did, tokenHash, nowS), refreshJwt: jwt('refresh', did, tokenHash, nowS) };
}

export type SessionCheck =
  { ok: true; account: SandboxAccount } | { ok: false; status: 400 | 401; error: string; message: string };

/**
 * The PDS's bearer check (auth-verifier.ts): no token → 401 AuthMissing; a token that does not verify →
 * 400 InvalidToken; a verified but expired one → 400 ExpiredToken; the other kind of token → 400 InvalidToken.
 * `acceptExpired`: for reads a PDS serves without any session, where the sandbox only asks who is reading.
 */
export async function checkSandboxSession(
  store: SandboxStore,
  token: string | null,
  kind: Kind,
  options: { now?: Date; acceptExpired?: boolean } = {},
): Promise<SessionCheck> {
  const now = options.now ?? new Date();
  if (!token) return { ok: false, status: 401, error: 'AuthMissing', message: 'Authentication Required' };
  const invalid = { ok: false, status: 400, error: 'InvalidToken', message: 'Token could not be verified' } as const;
  const [head, body, signature] = token.split('.');
  if (!head || !body || !signature) return invalid;
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return invalid;
  }
  if (typeof claims.sub !== 'string' || header.typ !== TYPES[kind]) return invalid;
  const account = await store.getAccount('bluesky', claims.sub);
  const tokenHash = account ? await store.getTokenHash(account.id) : null;
  if (!account || !tokenHash) return invalid;
  const expected = sign(`${head}.${body}`, tokenHash);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  if (!options.acceptExpired && (typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime()))
    return { ok: false, status: 400, error: 'ExpiredToken', message: 'Token has expired' };
  if (claims.scope !== SCOPES[kind])
    return { ok: false, status: 400, error: 'InvalidToken', message: 'Bad token scope' };
  return { ok: true, account };
}

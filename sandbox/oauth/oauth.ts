import { randomBytes, randomUUID } from 'node:crypto';
import { problem } from '@/lib/http/problem';
import { requestOrigin } from '@/lib/http/request-origin';
import { PROVIDER_META, SANDBOX_OAUTH_CLIENT_ID } from '@/lib/providers/catalog';
import { json } from '@/sandbox/behaviour/faults';
import { consentPage, errorPage, type ConsentIdentity } from './consent';
import { readBody } from '@/sandbox/http/request';
import {
  administratorOf,
  linkedinOrganizationUrn,
  sandboxRegistrations,
  unheldToken,
} from '@/sandbox/dialects/linkedin/identity';
import { facebookAdministratorOf, facebookPagesOf } from '@/sandbox/dialects/facebook/identity';
import { CODE_VERIFIER, s256Challenge } from './pkce';
import { hashSandboxToken, newSandboxIdentity, sandboxHandle } from './tokens';
import type { Platform, SandboxAccount, SandboxDeps } from '@/sandbox/store/types';

/**
 * The sandbox's OAuth 2.0 server, one per network (`/api/sandbox/<network>/oauth/authorize` and `/token`):
 * authorization code with PKCE (S256 only), as X runs it. Never more forgiving than a real server: a code is
 * single use, lives 30 s and is bound to the client, the redirect URI and the challenge; a refresh token is
 * single use (rotation), and a replayed one revokes its whole family; access tokens expire.
 */

/** Its registered redirect URI per network, on the origin the sandbox is served from (exact match). */
export const sandboxRedirectPath = (platform: Platform) => `/api/oauth/${platform}/callback`;

const CODE_TTL_MS = 30_000;
const DEFAULT_TOKEN_TTL_SECONDS = 7200; // X: "valid for two hours"

export async function handleOAuth(request: Request, platform: Platform, path: string, deps: SandboxDeps) {
  if (path === '/authorize' && (request.method === 'GET' || request.method === 'POST'))
    return authorize(request, platform, deps);
  if (path === '/token') {
    if (request.method !== 'POST') return problem({ status: 405, title: 'Method Not Allowed' }, { allow: 'POST' });
    return token(request, platform, deps);
  }
  return problem({ status: 404, title: 'Not Found', detail: `The sandbox OAuth server has no ${path}.` });
}

async function authorize(request: Request, platform: Platform, deps: SandboxDeps): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const origin = requestOrigin(request);
  // RFC 6749 §4.1.2.1: a bad client or redirect URI is shown to the user, never redirected to.
  if ((params.get('client_id') ?? params.get('client_key')) !== SANDBOX_OAUTH_CLIENT_ID)
    return errorPage(400, 'Unknown client_id.');
  const redirectUri = params.get('redirect_uri') ?? '';
  if (redirectUri !== origin + sandboxRedirectPath(platform))
    return errorPage(400, 'This redirect_uri is not registered for the client.');
  const state = params.get('state');
  const back = (answer: Record<string, string>) => {
    const target = new URL(redirectUri);
    for (const [k, v] of Object.entries({ ...answer, ...(state ? { state } : {}) })) target.searchParams.set(k, v);
    return new Response(null, { status: 302, headers: { location: target.toString(), 'cache-control': 'no-store' } });
  };
  if (params.get('response_type') !== 'code') return back({ error: 'unsupported_response_type' });
  if (!state) return back({ error: 'invalid_request', error_description: 'state is required' });
  const challenge = params.get('code_challenge') ?? '';
  if (params.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return back({ error: 'invalid_request', error_description: 'code_challenge with S256 is required' });
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0) return back({ error: 'invalid_scope' });
  // Google gives a refresh token only to `access_type=offline` (and again only with `prompt=consent`): without it an
  // app loses the channel an hour later, so the sandbox refuses what would silently break on Google.
  if (platform === 'youtube' && (params.get('access_type') !== 'offline' || params.get('prompt') !== 'consent'))
    return back({ error: 'invalid_request', error_description: 'access_type=offline and prompt=consent are required' });

  // Who is "signed in to the platform": inside the app, the sandbox users of the workspaces the member administers.
  // Nobody signed in (or a member who may connect accounts nowhere) gets no consent at all: otherwise anyone could
  // mint a sandbox user and a token, and with it reach every endpoint the sandbox serves
  // (docs/security.md#changed-in-the-second-security-review).
  const scope = deps.consentScope ? await deps.consentScope(request) : null;
  if (!scope)
    return errorPage(401, 'Sign in to Semel as a member who can connect accounts, then connect the account again.');
  const identities = new Map<string, ConsentIdentity>();
  let hinted: string | undefined;
  for (const s of scope) {
    if (s.account.platform !== platform) continue;
    // A LinkedIn page never signs in: its administering member does (and the token then acts for the page).
    const person = await signsInAs(s.account, deps);
    if (!person) continue;
    if (!identities.has(person.id))
      identities.set(person.id, { id: person.id, label: `${person.handle} (${person.platformUserId})` });
    if (s.account.platformUserId === params.get('login_hint')) hinted = person.id;
  }
  if (request.method === 'GET') {
    return consentPage({
      network: PROVIDER_META[platform].label,
      scopes,
      identities: [...identities.values()],
      selected: hinted ?? 'new',
    });
  }
  // The consent form posts to itself; a post from another site's page is refused.
  const sentFrom = request.headers.get('origin');
  if (sentFrom && sentFrom !== origin) return errorPage(403, 'The consent form must be sent from this page.');
  const body = (await readBody(request)) ?? {};
  if (body.decision === 'deny') return back({ error: 'access_denied' });
  if (body.decision !== 'authorize') return errorPage(400, 'Choose Authorize or Deny.');
  let accountId: string;
  if (body.account === 'new' || body.account === undefined) {
    accountId = (await registerNewUser(platform, deps)).id;
  } else if (typeof body.account === 'string' && identities.has(body.account)) {
    accountId = body.account;
  } else return errorPage(403, 'That sandbox user is not yours.');

  const code = `sbx_code_${randomBytes(24).toString('base64url')}`;
  await deps.store.oauth.saveCode(hashSandboxToken(code), {
    accountId,
    clientId: SANDBOX_OAUTH_CLIENT_ID,
    redirectUri,
    codeChallenge: challenge,
    scope: scopes.join(' '),
    familyId: randomUUID(),
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
  return back({ code });
}

/**
 * "A new sandbox user", shaped as the network's: on LinkedIn a member (urn:li:person:sbx…) who administers an
 * organization page, as a one-click LinkedIn account is (the member consents, the app then finds the page).
 * The users' own bearer tokens are never handed out: the app gets OAuth tokens only.
 */
async function registerNewUser(platform: Platform, deps: SandboxDeps) {
  const identity = newSandboxIdentity(platform);
  const own = {
    platformUserId: identity.platformUserId,
    handle: sandboxHandle(platform, identity.suffix),
    displayName: `Sandbox ${PROVIDER_META[platform].label} ${identity.suffix}`,
  };
  if (platform === 'facebook') {
    // A person who administers two pages: each becomes an account after the connect (GET /me/accounts).
    const user = await deps.store.registerAccount({
      platform,
      ...own,
      handle: `Sandbox User ${identity.suffix}`,
      displayName: `Sandbox User ${identity.suffix}`,
      token: unheldToken(),
    });
    for (const [i, pageId] of facebookPagesOf(identity.platformUserId).entries()) {
      const name = `Sandbox Page ${identity.suffix}${i === 0 ? '' : ` ${String.fromCharCode(65 + i)}`}`;
      await deps.store.registerAccount({
        platform,
        platformUserId: pageId,
        handle: name,
        displayName: name,
        token: unheldToken(),
      });
    }
    return user;
  }
  if (platform !== 'linkedin') return deps.store.registerAccount({ platform, ...own, token: unheldToken() });
  let member: SandboxAccount | undefined;
  const page = { ...own, provider: platform, platformUserId: linkedinOrganizationUrn(identity.platformUserId) };
  for (const r of sandboxRegistrations(page)) {
    const { platformUserId, handle, displayName } = r;
    const account = await deps.store.registerAccount({
      platform,
      platformUserId,
      handle,
      displayName,
      token: unheldToken(),
    });
    if (r.holdsToken) member = account;
  }
  return member!;
}

async function token(request: Request, platform: Platform, deps: SandboxDeps): Promise<Response> {
  if (!(request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded'))
    return oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
  const body = (await readBody(request)) ?? {};
  const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
  const clientId = basicClientId(request) ?? (field('client_id') || field('client_key'));
  if (clientId !== SANDBOX_OAUTH_CLIENT_ID) return oauthError(401, 'invalid_client', 'Unknown client.');

  if (field('grant_type') === 'authorization_code') {
    const invalidCode = () => invalidGrant(platform, 'Value passed for the authorization code was invalid.');
    const used = await deps.store.oauth.redeemCode(hashSandboxToken(field('code')));
    if (!used) return invalidCode();
    const { code } = used;
    if (used.status === 'reused') {
      // A code used twice may have been stolen: what it was exchanged for is revoked (RFC 6749 §4.1.2).
      await deps.store.oauth.revokeFamily(code.familyId);
      return invalidCode();
    }
    const verifier = field('code_verifier');
    const verified = CODE_VERIFIER.test(verifier) && s256Challenge(verifier) === code.codeChallenge;
    if (
      code.expiresAt.getTime() <= Date.now() ||
      code.clientId !== clientId ||
      code.redirectUri !== field('redirect_uri') ||
      !verified
    )
      return invalidCode();
    return issue(deps, platform, code);
  }

  if (field('grant_type') === 'refresh_token') {
    const spent = await deps.store.oauth.spendRefreshToken(hashSandboxToken(field('refresh_token')));
    const invalidToken = () => invalidGrant(platform, 'Value passed for the token was invalid.');
    if (!spent) return invalidToken();
    if (spent.status === 'spent') {
      // Replay of a rotated refresh token: the family is revoked, as OAuth 2.1 servers do.
      await deps.store.oauth.revokeFamily(spent.token.familyId);
      return invalidToken();
    }
    if (spent.status === 'revoked' || spent.token.clientId !== clientId) return invalidToken();
    return issue(deps, platform, spent.token);
  }
  return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
}

/** New tokens in the grant's family: an access token that expires and, when the grant allows it, a refresh token. */
async function issue(
  deps: SandboxDeps,
  platform: Platform,
  grant: { accountId: string; clientId: string; familyId: string; scope: string },
) {
  const ttlSeconds = deps.oauthTokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  const accessToken = `sbx_oat_${randomBytes(24).toString('base64url')}`;
  // X issues a refresh token only for `offline.access`.
  const refreshToken =
    platform !== 'x' || grant.scope.split(' ').includes('offline.access')
      ? `sbx_ort_${randomBytes(24).toString('base64url')}`
      : undefined;
  const common = { accountId: grant.accountId, clientId: grant.clientId, familyId: grant.familyId, scope: grant.scope };
  await deps.store.oauth.issueTokens([
    {
      ...common,
      tokenHash: hashSandboxToken(accessToken),
      kind: 'access',
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    },
    ...(refreshToken
      ? [{ ...common, tokenHash: hashSandboxToken(refreshToken), kind: 'refresh' as const, expiresAt: null }]
      : []),
  ]);
  return json(
    200,
    {
      token_type: 'bearer',
      expires_in: ttlSeconds,
      access_token: accessToken,
      scope: grant.scope,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/** X answers a bad code or token with 400 invalid_request and its own wording; RFC 6749 says invalid_grant. */
function invalidGrant(platform: Platform, xDescription: string) {
  return platform === 'x'
    ? oauthError(400, 'invalid_request', xDescription)
    : oauthError(400, 'invalid_grant', 'The grant is invalid, expired, revoked or was issued to another client.');
}

function oauthError(status: number, error: string, description: string) {
  return json(status, { error, error_description: description }, { 'cache-control': 'no-store', pragma: 'no-cache' });
}

function basicClientId(request: Request): string | null {
  const match = /^Basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  return decodeURIComponent(decoded.split(':')[0] ?? '');
}

/** Control: `POST /api/sandbox/revoke {accountId}` revokes every token of a workspace's sandbox account. */
export async function handleRevoke(request: Request, deps: SandboxDeps): Promise<Response> {
  if (request.method !== 'POST') return problem({ status: 405, title: 'Method Not Allowed' }, { allow: 'POST' });
  const scope = await deps.resolveScope(request, 'change');
  if (scope instanceof Response) return scope;
  const body = await readBody(request);
  const target = scope.find((s) => s.accountId === body?.accountId);
  if (!target)
    return problem({ status: 404, title: 'Not Found', detail: 'No sandbox account with that id in this workspace.' });
  // A LinkedIn page holds no token of its own: revoking it revokes its administrator's. A Facebook page's tokens are
  // its own (from /me/accounts): they go with its administrator's.
  const holder = (await signsInAs(target.account, deps)) ?? target.account;
  let revoked = await deps.store.oauth.revokeAccount(holder.id);
  if (holder.id !== target.account.id && target.account.platform === 'facebook')
    revoked += await deps.store.oauth.revokeAccount(target.account.id);
  return json(200, { accountId: target.accountId, revoked });
}

/** Who signs in for a sandbox account: itself, or for a LinkedIn page the member who administers it. */
async function signsInAs(account: SandboxAccount, deps: SandboxDeps): Promise<SandboxAccount | null> {
  if (account.platform === 'facebook') {
    // A page never signs in: its administrator does. A one-click page has none (it holds its token itself).
    const admin = facebookAdministratorOf(account.platformUserId);
    return admin ? deps.store.getAccount('facebook', admin) : null;
  }
  if (account.platform !== 'linkedin') return account;
  const admin = administratorOf(account.platformUserId);
  return admin ? deps.store.getAccount('linkedin', admin) : account;
}

import type { Database } from '@/db/client';
import { connectAccount } from '@/db/queries/accounts';
import { notifyDue } from '@/db/queries/publishing';
import type { Env } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import {
  appOrigin,
  connectTools,
  providerDefinition,
  type ProviderName,
  type ProviderTransport,
} from '@/lib/providers';
import { sealCredentials } from '@/lib/providers/credentials';
import { oauthEndpoints, type EndpointsProblem } from './endpoints';
import type { OAuthProblem } from './messages';
import { createOAuthState, redeemOAuthState } from './state';
import { requestTokens } from './token-request';

/** The callback this app registers with each network (and the sandbox's registered one). */
export const callbackPath = (provider: ProviderName) => `/api/oauth/${provider}/callback`;

type Common = {
  provider: ProviderName;
  workspaceId: string;
  userId: string;
  encryptionKey: string;
  env?: Env;
  /** This app's own origin for server-side calls to its sandbox (default: appOrigin()). */
  serverOrigin?: string;
  transport?: ProviderTransport;
};

/**
 * Step one of a connect (use case, no HTTP): a state bound to this admin and workspace, and the network's
 * authorize URL to send the browser to. `origin` is where the admin's browser reaches this app.
 */
export async function startOAuthConnect(
  db: Database,
  params: Common & { sandbox: boolean; origin: string; loginHint?: string },
): Promise<{ ok: true; url: string } | { ok: false; problem: EndpointsProblem }> {
  const endpoints = oauthEndpoints(providerDefinition(params.provider), {
    sandbox: params.sandbox,
    browserOrigin: params.origin,
    serverOrigin: params.serverOrigin ?? appOrigin(),
    env: params.env,
  });
  if ('problem' in endpoints) return { ok: false, problem: endpoints.problem };
  const redirectUri = params.origin + callbackPath(params.provider);
  const { state, codeChallenge } = await createOAuthState(db, { ...params, redirectUri });
  const url = new URL(endpoints.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    [providerDefinition(params.provider).oauth?.clientParams?.id ?? 'client_id']: endpoints.client.clientId,
    redirect_uri: redirectUri,
    scope: endpoints.scopes.join(' '),
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
    ...providerDefinition(params.provider).oauth?.authorizeParams,
    // A reconnect names the identity; only the sandbox uses it (to preselect who consents).
    ...(params.sandbox && params.loginHint ? { login_hint: params.loginHint } : {}),
  }).toString();
  return { ok: true, url: url.toString() };
}

export type ConnectedAccount = { id: string; handle: string };

/**
 * Step two, the callback: the state (this admin's, this workspace's, unused, unexpired; used up here), the
 * code exchanged for tokens, the identities read with the new token, each connected with its credentials
 * sealed (a reconnect updates the existing account and sets its token health `ok`).
 */
export async function completeOAuthConnect(
  db: Database,
  params: Common & { query: { state?: string | null; code?: string | null; error?: string | null } },
): Promise<{ ok: true; accounts: ConnectedAccount[] } | { ok: false; problem: OAuthProblem }> {
  const { query } = params;
  if (!query.state) return { ok: false, problem: 'bad_callback' };
  const used = await redeemOAuthState(db, { ...params, state: query.state });
  if (!used.ok) return { ok: false, problem: used.reason };
  if (query.error) return { ok: false, problem: query.error === 'access_denied' ? 'denied' : 'platform_error' };
  if (!query.code) return { ok: false, problem: 'bad_callback' };

  const serverOrigin = params.serverOrigin ?? appOrigin();
  const definition = providerDefinition(params.provider);
  const endpoints = oauthEndpoints(definition, {
    sandbox: used.row.sandbox,
    browserOrigin: serverOrigin,
    serverOrigin,
    env: params.env,
  });
  if ('problem' in endpoints) return { ok: false, problem: endpoints.problem };
  const tokens = await requestTokens({
    tokenUrl: endpoints.tokenUrl,
    client: endpoints.client,
    clientParams: definition.oauth?.clientParams,
    outbound: endpoints.tokenOutbound,
    send: params.transport,
    form: {
      grant_type: 'authorization_code',
      code: query.code,
      redirect_uri: used.row.redirectUri,
      code_verifier: used.codeVerifier,
    },
  });
  if (!tokens.ok) {
    logger.warn(
      { provider: params.provider, workspaceId: params.workspaceId, reason: tokens.reason },
      'oauth: code exchange failed',
    );
    return { ok: false, problem: 'exchange_failed' };
  }
  const tools = connectTools(params.provider, { origin: serverOrigin, transport: params.transport });
  let credentials = tokens.credentials;
  const exchange = definition.oauth?.longLivedExchange;
  if (exchange) {
    const longLived = await exchange({
      account: tools.resolve({ baseUrl: endpoints.accountBaseUrl, credentials }),
      clientId: endpoints.client.clientId,
      clientSecret: endpoints.client.clientSecret,
      send: params.transport,
    });
    if (!longLived.ok) {
      logger.warn(
        { provider: params.provider, workspaceId: params.workspaceId, reason: longLived.reason },
        'oauth: no long-lived token',
      );
      return { ok: false, problem: 'exchange_failed' };
    }
    credentials = longLived.credentials;
  }

  const client = tools.client({ baseUrl: endpoints.accountBaseUrl, credentials });
  let identities: Awaited<ReturnType<NonNullable<typeof client.listIdentities>>>;
  try {
    if (client.listIdentities) identities = await client.listIdentities({ timeoutMs: 10_000 });
    else {
      const me = await client.whoAmI({ timeoutMs: 10_000 });
      identities = me.ok ? [{ platformUserId: me.id, handle: me.handle, displayName: me.displayName }] : [];
    }
  } catch {
    identities = [];
  }
  if (identities.length === 0) return { ok: false, problem: 'identity_failed' };

  const accounts = await db.transaction(async (tx) => {
    const connected: ConnectedAccount[] = [];
    for (const identity of identities) {
      // A Facebook page publishes with its own page token; other identities share the connect's token.
      const sealed = identity.credentials ?? credentials;
      const row = await connectAccount(
        tx,
        {
          workspaceId: params.workspaceId,
          provider: params.provider,
          sandbox: endpoints.sandbox,
          baseUrl: endpoints.accountBaseUrl,
          handle: identity.handle,
          displayName: identity.displayName,
          platformUserId: identity.platformUserId,
          tokenExpiresAt: sealed.expiresAt ? new Date(sealed.expiresAt) : null,
        },
        (id) => sealCredentials(sealed, params.encryptionKey, id),
      );
      connected.push({ id: row.id, handle: row.handle });
    }
    // Deliveries held for a bad token may go now: wake the schedulers (delivered on commit).
    await notifyDue(tx);
    return connected;
  });
  logger.info(
    {
      provider: params.provider,
      workspaceId: params.workspaceId,
      userId: params.userId,
      accounts: accounts.map((a) => a.id),
    },
    'oauth: accounts connected',
  );
  return { ok: true, accounts };
}

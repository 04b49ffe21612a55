import 'server-only';
import { z } from 'zod';
import { can } from '@/lib/auth/can';
import { type WorkspaceContext } from '@/lib/auth/session';
import { gateWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { requestOrigin } from '@/lib/http/request-origin';
import type { OAuthProblem } from '@/lib/oauth/messages';
import { PROVIDER_NAMES } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';

// Shared by the OAuth start and callback handlers: who may connect, where the browser is, where it goes back to.

/** Where the admin's browser reaches this app: NEXTAUTH_URL when set (the URL registered with networks), else the request's. */
export function browserOrigin(request: Request): string {
  const configured = getEnv().NEXTAUTH_URL;
  return configured ? new URL(configured).origin : requestOrigin(request);
}

/** Back to the accounts page with a status code (never free text from the URL: messages come from a table). */
export function backToAccounts(
  request: Request,
  result: { problem: OAuthProblem; provider?: string } | { connected: string[] },
): Response {
  const url = new URL('/accounts', browserOrigin(request));
  if ('problem' in result) {
    url.searchParams.set('oauth', result.problem);
    if (result.provider) url.searchParams.set('network', result.provider);
  } else {
    url.searchParams.set('oauth', 'connected');
    url.searchParams.set('accounts', result.connected.join(','));
  }
  return redirect(url.toString());
}

export function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

const providerName = z.enum(PROVIDER_NAMES as [ProviderName, ...ProviderName[]]);

/** The signed-in admin and the network, checked on the server for every request; or the reason to go back. */
export async function adminFor(
  rawProvider: string,
): Promise<{ ok: true; context: WorkspaceContext; provider: ProviderName } | { ok: false; problem: OAuthProblem }> {
  const gate = await gateWorkspace();
  if (!gate.ok) return { ok: false, problem: gate.reason === 'signed_out' ? 'signed_out' : 'forbidden' };
  const context = gate.context;
  if (!can(context.role, 'manageAccounts')) return { ok: false, problem: 'forbidden' };
  const provider = providerName.safeParse(rawProvider);
  if (!provider.success) return { ok: false, problem: 'unknown_network' };
  return { ok: true, context, provider: provider.data };
}

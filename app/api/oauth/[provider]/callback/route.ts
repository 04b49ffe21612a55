import { getDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { completeOAuthConnect } from '@/lib/oauth/connect';
import { adminFor, backToAccounts } from '../../redirect';

export const dynamic = 'force-dynamic';

/**
 * GET /api/oauth/<network>/callback?state=…&code=…: where the network sends the admin back. The state must be
 * this admin's, in the active workspace, unused and unexpired; then the code is exchanged and the accounts are
 * connected. Every outcome, failures included, lands on /accounts with a message (never a 500).
 */
export async function GET(request: Request, route: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider: raw } = await route.params;
  try {
    const admin = await adminFor(raw);
    if (!admin.ok) return backToAccounts(request, { problem: admin.problem, provider: raw });
    const query = new URL(request.url).searchParams;
    const result = await completeOAuthConnect(getDb(), {
      provider: admin.provider,
      workspaceId: admin.context.workspace.id,
      userId: admin.context.user.id,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
      query: { state: query.get('state'), code: query.get('code'), error: query.get('error') },
    });
    if (!result.ok) return backToAccounts(request, { problem: result.problem, provider: admin.provider });
    return backToAccounts(request, { connected: result.accounts.map((a) => a.id) });
  } catch (error) {
    logger.error({ err: error, provider: raw }, 'oauth: callback failed');
    return backToAccounts(request, { problem: 'failed', provider: raw });
  }
}

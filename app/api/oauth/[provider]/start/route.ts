import { z } from 'zod';
import { getAccountWithCredentials } from '@/db/queries/accounts';
import { getDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { startOAuthConnect } from '@/lib/oauth/connect';
import { adminFor, backToAccounts, browserOrigin, redirect } from '../../redirect';

export const dynamic = 'force-dynamic';

/**
 * GET /api/oauth/<network>/start[?sandbox=1][&account=<id>]: an admin starts connecting (or reconnecting) an
 * account; the browser goes to the network's consent page (or the sandbox's own). Never a 500: any failure
 * lands on /accounts with a message.
 */
export async function GET(request: Request, route: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider: raw } = await route.params;
  try {
    const admin = await adminFor(raw);
    if (!admin.ok) {
      if (admin.problem === 'signed_out') {
        const back = new URL(request.url);
        return redirect(
          `${browserOrigin(request)}/signin?callbackUrl=${encodeURIComponent(back.pathname + back.search)}`,
        );
      }
      return backToAccounts(request, { problem: admin.problem, provider: raw });
    }
    const params = new URL(request.url).searchParams;
    const sandbox = params.get('sandbox') === '1';
    // A reconnect names the account: the sandbox preselects its identity on the consent page.
    const accountId = z.uuid().safeParse(params.get('account'));
    const account = accountId.success
      ? await getAccountWithCredentials(getDb(), { workspaceId: admin.context.workspace.id, accountId: accountId.data })
      : null;
    const started = await startOAuthConnect(getDb(), {
      provider: admin.provider,
      sandbox,
      origin: browserOrigin(request),
      workspaceId: admin.context.workspace.id,
      userId: admin.context.user.id,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
      loginHint: account?.provider === admin.provider ? account.platformUserId : undefined,
    });
    if (!started.ok) return backToAccounts(request, { problem: started.problem, provider: admin.provider });
    return redirect(started.url);
  } catch (error) {
    logger.error({ err: error, provider: raw }, 'oauth: start failed');
    return backToAccounts(request, { problem: 'failed', provider: raw });
  }
}

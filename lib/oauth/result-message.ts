import type { Executor } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import { isOAuthProblem, OAUTH_PROBLEM_MESSAGES } from './messages';

/**
 * What /accounts says after a connect, from the codes the OAuth routes put in the URL: the connected accounts'
 * handles (looked up in this workspace only) or the problem's message. Null when the URL says nothing.
 */
export async function oauthResultMessage(
  db: Executor,
  params: { workspaceId: string; oauth?: string; accounts?: string; network?: string },
): Promise<{ ok: boolean; message: string } | null> {
  if (!params.oauth) return null;
  if (params.oauth === 'connected') {
    const ids = new Set((params.accounts ?? '').split(','));
    const connected = (await listAccounts(db, { workspaceId: params.workspaceId })).filter((a) => ids.has(a.id));
    if (connected.length === 0) return null;
    const names = connected.map((a) => a.handle).join(', ');
    return { ok: true, message: `Connected ${names} on ${PROVIDER_LABEL[connected[0]!.provider]}.` };
  }
  if (!isOAuthProblem(params.oauth)) return null;
  const network =
    params.network && Object.hasOwn(PROVIDER_LABEL, params.network)
      ? PROVIDER_LABEL[params.network as keyof typeof PROVIDER_LABEL]
      : null;
  return { ok: false, message: `${network ? `${network}: ` : ''}${OAUTH_PROBLEM_MESSAGES[params.oauth]}` };
}

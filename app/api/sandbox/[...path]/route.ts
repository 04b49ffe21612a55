import { problem } from '@/lib/http/problem';
import { getEnv } from '@/lib/env';
import { getAppSandboxDeps } from '@/lib/sandbox/app';
import { handleSandboxRequest } from '@/sandbox/http/router';

export const dynamic = 'force-dynamic';

/** The built-in sandbox network (X v2, Mastodon, fault and timeline control); off unless SANDBOX_ENABLED. */
async function handle(request: Request): Promise<Response> {
  if (!getEnv().sandboxEnabled)
    return problem({
      status: 404,
      title: 'Not Found',
      detail: 'The sandbox network is switched off (SANDBOX_ENABLED).',
    });
  return handleSandboxRequest(request, getAppSandboxDeps());
}

export { handle as GET, handle as POST, handle as PUT, handle as DELETE };

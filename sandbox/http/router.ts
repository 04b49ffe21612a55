import { problem } from '@/lib/http/problem';
import { requestOrigin } from '@/lib/http/request-origin';
import { logger } from '@/lib/logging/logger';
import { SANDBOX_INBOX_ROUTES } from '@/sandbox/dialects/inbox-registry';
import { SANDBOX_DIALECTS } from '@/sandbox/dialects/registry';
import { handleFaults, handleTimeline } from './control';
import { handleInbound } from './inbound-control';
import { handleOAuth, handleRevoke } from '@/sandbox/oauth/oauth';
import type { Platform, SandboxDeps } from '@/sandbox/store/types';

const PREFIX = '/api/sandbox';

/**
 * The whole sandbox network as one Request → Response function, free of any framework: the Next
 * route handler and the standalone node:http server (sandbox/http/node-server.ts) both call it.
 */
export async function handleSandboxRequest(request: Request, deps: SandboxDeps): Promise<Response> {
  const url = new URL(request.url);
  const at = url.pathname.indexOf(PREFIX);
  const path = at === -1 ? url.pathname : url.pathname.slice(at + PREFIX.length);
  // Links it hands out (Threads permalinks, Mastodon status URLs) on the origin the caller used: behind `next start`
  // request.url says localhost, where the browser holds no session for a 127.0.0.1 or named host.
  const root = requestOrigin(request) + url.pathname.slice(0, at === -1 ? 0 : at) + PREFIX;
  try {
    const [, network, rest = ''] = /^\/([a-z]+)(\/.*)?$/.exec(path) ?? [];
    const platform = network && Object.hasOwn(SANDBOX_DIALECTS, network) ? (network as Platform) : null;
    if (platform && rest) {
      const dialect = SANDBOX_DIALECTS[platform];
      const oauth = /^\/oauth(\/[a-z]+)$/.exec(rest);
      if (oauth && dialect.oauth) return await handleOAuth(request, platform, oauth[1]!, deps);
      const inbox = await SANDBOX_INBOX_ROUTES[platform]?.(request, rest, deps, `${root}/${platform}`);
      return inbox ?? (await dialect.handle(request, rest, deps, `${root}/${platform}`));
    }
    if (path === '/faults') return await handleFaults(request, deps);
    if (path === '/timeline') return await handleTimeline(request, deps);
    if (path === '/inbound') return await handleInbound(request, deps);
    if (path === '/revoke') return await handleRevoke(request, deps);
    return problem({ status: 404, title: 'Not Found', detail: `The sandbox has no ${path || '/'}.` });
  } catch (error) {
    logger.error({ err: error, path: url.pathname }, 'sandbox handler failed');
    return problem({ status: 500, title: 'Internal Server Error', detail: 'The sandbox failed unexpectedly.' });
  }
}

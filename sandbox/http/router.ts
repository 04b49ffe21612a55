import { problem } from '@/lib/http/problem';
import { requestOrigin } from '@/lib/http/request-origin';
import { logger } from '@/lib/logging/logger';
import { handleBluesky } from '@/sandbox/dialects/bluesky/api';
import { handleFaults, handleTimeline } from './control';
import { handleLinkedin } from '@/sandbox/dialects/linkedin/api';
import { handleMastodon } from '@/sandbox/dialects/mastodon/api';
import { handleThreads } from '@/sandbox/dialects/threads/api';
import { handleOAuth, handleRevoke } from '@/sandbox/oauth/oauth';
import type { SandboxDeps } from '@/sandbox/store/types';
import { handleX } from '@/sandbox/dialects/x/api';

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
    const oauth = /^\/(x|linkedin|threads)\/oauth(\/[a-z]+)$/.exec(path);
    if (oauth) return await handleOAuth(request, oauth[1] as 'x' | 'linkedin' | 'threads', oauth[2]!, deps);
    if (path.startsWith('/x/')) return await handleX(request, path.slice('/x'.length), deps);
    if (path.startsWith('/bluesky/')) return await handleBluesky(request, path.slice('/bluesky'.length), deps);
    if (path.startsWith('/mastodon/'))
      return await handleMastodon(request, path.slice('/mastodon'.length), deps, `${root}/mastodon`);
    if (path.startsWith('/linkedin/'))
      return await handleLinkedin(request, path.slice('/linkedin'.length), deps, `${root}/linkedin`);
    if (path.startsWith('/threads/'))
      return await handleThreads(request, path.slice('/threads'.length), deps, `${root}/threads`);
    if (path === '/faults') return await handleFaults(request, deps);
    if (path === '/timeline') return await handleTimeline(request, deps);
    if (path === '/revoke') return await handleRevoke(request, deps);
    return problem({ status: 404, title: 'Not Found', detail: `The sandbox has no ${path || '/'}.` });
  } catch (error) {
    logger.error({ err: error, path: url.pathname }, 'sandbox handler failed');
    return problem({ status: 500, title: 'Internal Server Error', detail: 'The sandbox failed unexpectedly.' });
  }
}

import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxDeps } from '@/sandbox/store/types';

// People comment on an Instagram account's media (sandbox/behaviour/inbound.ts): before GET /{media}/comments lists
// them (sandbox/dialects/instagram/api.ts, the edge the publisher's reads use too), what they said up to now is stored.
// Never answers itself: the dialect's own route does.

export async function handleInstagramInbox(request: Request, path: string, deps: SandboxDeps): Promise<null> {
  if (request.method !== 'GET' || !/^(?:\/v\d+\.\d+)?\/\d{1,19}\/comments\/?$/.test(path)) return null;
  const token = bearerToken(request) ?? new URL(request.url).searchParams.get('access_token');
  const viewer = token ? await deps.store.authenticate('instagram', token) : null;
  if (viewer) await receiveInbound(deps.store, viewer);
  return null;
}

import 'server-only';
import { can, type Capability } from '@/lib/auth/can';
import { type WorkspaceContext } from '@/lib/auth/session';
import { gateWorkspace, type WorkspaceGate } from '@/lib/auth/gate';
import { problem } from './problem';

type Read<P> = (context: WorkspaceContext, params: P, request: Request) => Promise<unknown>;

/**
 * A GET route handler the dashboard's client reads (React Query): the session's active workspace and the
 * capability are checked here, on the server, for every request; null from the read is a 404, and a Response
 * from it (a 422 for bad query parameters) is sent as it is.
 * Never cached: the answer depends on the caller's cookie.
 */
export function appRead<P = Record<string, never>>(capability: Capability, read: Read<P>) {
  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    const gate = await gateWorkspace();
    if (!gate.ok) return gateProblem(gate);
    const context = gate.context;
    if (!can(context.role, capability))
      return problem({ status: 403, title: 'Forbidden', detail: 'Your role in this workspace cannot read this.' });
    const data = await read(context, await route.params, request);
    if (data === null) return problem({ status: 404, title: 'Not Found' });
    if (data instanceof Response) return data;
    return Response.json(data, { headers: { 'cache-control': 'private, no-store' } });
  };
}

/** A refused gate as problem+json: 401 signed out, 403 two-factor enrolment due. */
export const gateProblem = (gate: Extract<WorkspaceGate, { ok: false }>) =>
  gate.status === 401
    ? problem({ status: 401, title: 'Unauthorized', detail: 'Sign in first.' })
    : problem({ status: 403, title: 'Forbidden', detail: gate.message });

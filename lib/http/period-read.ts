import 'server-only';
import { getDb } from '@/db/client';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { can } from '@/lib/auth/can';
import { gateWorkspace } from '@/lib/auth/gate';
import type { WorkspaceContext } from '@/lib/auth/session';
import type { ReportPeriod } from '@/lib/reports/period';
import { gateProblem } from './app-read';
import { problem } from './problem';

type PeriodCheck = { ok: true; period: ReportPeriod } | { ok: false; errors: Record<string, string> };

/**
 * A dashboard download over a period of the workspace's days (the report's CSV and PDF, the metrics CSV): the
 * signed-in member's active workspace and role checked here, the `from`/`to` query checked in its zone (a 422
 * problem naming the fields otherwise). Either what the download needs, or the answer to send.
 */
export async function readPeriodDownload(
  request: Request,
  check: (query: { from?: string; to?: string }, timeZone: string) => PeriodCheck,
): Promise<
  | { ok: true; context: WorkspaceContext; timeZone: string; period: ReportPeriod; query: URLSearchParams }
  | { ok: false; response: Response }
> {
  const gate = await gateWorkspace();
  if (!gate.ok) return { ok: false, response: gateProblem(gate) };
  const context = gate.context;
  if (!can(context.role, 'read')) return { ok: false, response: problem({ status: 403, title: 'Forbidden' }) };
  const timeZone = (await getWorkspaceSettings(getDb(), { workspaceId: context.workspace.id }))?.timeZone ?? 'UTC';
  const query = new URL(request.url).searchParams;
  const checked = check({ from: query.get('from') ?? undefined, to: query.get('to') ?? undefined }, timeZone);
  if (!checked.ok)
    return {
      ok: false,
      response: problem({
        status: 422,
        title: 'Unprocessable Content',
        detail: 'Invalid report period.',
        errors: Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [k, [v]])),
      }),
    };
  return { ok: true, context, timeZone, period: checked.period, query };
}

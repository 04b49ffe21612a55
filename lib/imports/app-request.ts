import 'server-only';
import type { WorkspaceContext } from '@/lib/auth/session';
import { problem } from '@/lib/http/problem';
import { isCrossSite } from '@/lib/http/request-origin';
import { readImportRequest, UPLOAD_PROBLEM_TITLES as TITLES, type ReadImportRequest } from './read-request';
import type { ImportContext } from './run';

/** The import page's upload (app/api/app/imports/): same-origin only, the file read as for the API. */
export async function readAppImportRequest(
  request: Request,
): Promise<Extract<ReadImportRequest, { ok: true }> | { ok: false; response: Response }> {
  if (isCrossSite(request))
    return {
      ok: false,
      response: problem({ status: 403, title: 'Forbidden', detail: 'Uploads come from this app’s own pages only.' }),
    };
  const body = await readImportRequest(request);
  if (!body.ok)
    return { ok: false, response: problem({ status: body.status, title: TITLES[body.status], detail: body.detail }) };
  return body;
}

export const badFileProblem = (bad: { status: number; title: string; detail: string }) =>
  problem({ status: bad.status, title: bad.title, detail: bad.detail });

export const appImportContext = ({ workspace, user }: WorkspaceContext): ImportContext => ({
  workspaceId: workspace.id,
  source: 'form',
  actor: `user:${user.id}`,
  userId: user.id,
});

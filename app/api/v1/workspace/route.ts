import { getDb } from '@/db/client';
import { getWorkspaceApproval, setApprovalRequired } from '@/db/queries/approvals';
import { workspacePatchSchema } from '@/lib/api/contract/approvals';
import { apiHandler, json, readJson, validationProblem } from '@/lib/api/handler';

export const dynamic = 'force-dynamic';

async function workspaceBody(workspaceId: string) {
  const row = (await getWorkspaceApproval(getDb(), { workspaceId }))!;
  return { id: row.id, name: row.name, approvalRequired: row.approvalRequired };
}

/** The key's own workspace: another workspace is never named here (I6). */
export const GET = apiHandler('workspace:write', async (_request, principal) =>
  json(await workspaceBody(principal.workspaceId)),
);

export const PATCH = apiHandler('workspace:write', async (request, principal) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = workspacePatchSchema.safeParse(body.value);
  if (!parsed.success) return validationProblem(parsed.error);
  await setApprovalRequired(getDb(), {
    workspaceId: principal.workspaceId,
    approvalRequired: parsed.data.approvalRequired,
    actorUserId: null,
    apiKeyId: principal.apiKeyId,
  });
  return json(await workspaceBody(principal.workspaceId));
});

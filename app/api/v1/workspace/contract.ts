import { workspacePatchSchema, workspaceSettingsSchema } from '@/lib/api/contract/approvals';
import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';

/** /api/v1/workspace — the contract of ./route.ts. */
export const workspaceContract = defineRoute('/workspace', {
  GET: {
    operationId: 'getWorkspace',
    summary: "The key's workspace and its settings",
    scope: 'workspace:write',
    responses: { 200: jsonResponse('The workspace', workspaceSettingsSchema) },
  },
  PATCH: {
    operationId: 'updateWorkspace',
    summary: 'Change workspace settings ("Posts need approval")',
    description: 'Idempotent: the same body twice leaves the same settings. Posts already waiting keep waiting.',
    scope: 'workspace:write',
    request: { body: { required: true, content: { 'application/json': { schema: workspacePatchSchema } } } },
    responses: {
      200: jsonResponse('The workspace as stored', workspaceSettingsSchema),
      400: problemResponse('A body that is not JSON (nothing changed)'),
      422: problemResponse('Invalid fields (`errors`); nothing changed'),
    },
  },
});

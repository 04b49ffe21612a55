import { z } from './zod';

/** Request and answer shapes of the approval endpoints (workspace setting, approve, reject). */
export const workspaceSettingsSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    approvalRequired: z
      .boolean()
      .openapi({ description: 'New and edited posts wait in `awaiting_approval` until approved.' }),
  })
  .openapi('Workspace');

export const workspacePatchSchema = z
  .object({ approvalRequired: z.boolean() })
  .strict()
  .openapi('WorkspacePatch', { description: 'The settings to change.' });

export const approveBodySchema = z
  .object({
    comment: z.string().max(2000, 'At most 2000 characters').optional(),
    revision: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: 'The revision you reviewed; refused with 409 if the post was edited since.' }),
  })
  .strict()
  .openapi('ApproveRequest');

export const rejectBodySchema = z
  .object({
    comment: z.string().trim().min(1, 'Say what should change').max(2000, 'At most 2000 characters'),
    revision: z.number().int().min(1).optional(),
  })
  .strict()
  .openapi('RequestChangesRequest');

export const approvalDecisionSchema = z
  .object({
    postId: z.uuid(),
    decision: z.enum(['approved', 'changes_requested']),
    revision: z.number().int(),
    comment: z.string().nullable(),
    deciderName: z.string(),
    decidedAt: z.iso.datetime(),
    alreadyDecided: z.boolean().openapi({
      description: 'True when this revision was already decided the same way (a repeat): nothing changed.',
    }),
  })
  .openapi('ApprovalDecision');

export const decisionConflictSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.literal(409),
    detail: z.string(),
    decision: approvalDecisionSchema.omit({ alreadyDecided: true, postId: true }).optional(),
    currentRevision: z.number().int().optional(),
  })
  .openapi('DecisionConflictProblem', {
    description:
      'Decided the other way already (`decision`: who and when), edited since the given revision (`currentRevision`), or not awaiting approval.',
  });

import 'server-only';
import { z } from 'zod';
import { logger } from '@/lib/logging/logger';
import { can, requiredRole, type Capability } from './can';
import { hasRole, type Role } from './roles';
import { type WorkspaceContext } from './session';
import { gateWorkspace } from './gate';

export type ActionState<T = undefined> = {
  ok: boolean;
  status?: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 502;
  message?: string;
  errors?: Record<string, string[] | undefined>;
  data?: T;
};

/** A refusal naming the fields to fix (422): what a form shows beside each field. */
export function invalidFields<T = undefined>(errors: Record<string, string[]>): ActionState<T> {
  return { ok: false, status: 422, errors, message: 'Please fix the highlighted fields.' };
}

/** A server action as a component receives it (a prop): components never import from app/. */
export type FormAction<T = undefined> = (
  previous: ActionState<T> | undefined,
  formData: FormData,
) => Promise<ActionState<T>>;

/** FormData to a plain object; a name that appears more than once becomes an array (checkbox groups). */
export function formDataToObject(formData: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of formData.entries()) {
    if (key.startsWith('$ACTION')) continue;
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

/**
 * Every server action goes through this: session, workspace, role and zod parsing happen here so
 * no action can forget one. Server actions are public POST endpoints; the UI hiding a button is not a check.
 */
export function workspaceAction<S extends z.ZodType, T = undefined>(
  options: { schema: S; name: string } & ({ can: Capability; role?: never } | { role: Role; can?: never }),
  handler: (input: z.output<S>, context: WorkspaceContext) => Promise<ActionState<T>>,
) {
  return async (_previous: ActionState<T> | undefined, formData: FormData): Promise<ActionState<T>> => {
    const gate = await gateWorkspace();
    if (!gate.ok) return { ok: false, status: gate.status, message: gate.message };
    const context = gate.context;
    // A server action is a public endpoint: a caller can send any serializable argument, not only a form.
    if (!(formData instanceof FormData))
      return { ok: false, status: 400, message: 'This action takes a form submission.' };
    const allowed = options.can ? can(context.role, options.can) : hasRole(context.role, options.role!);
    if (!allowed) {
      const needs = options.can ? requiredRole(options.can) : options.role;
      logger.warn({ action: options.name, userId: context.user.id, role: context.role }, 'action refused: role');
      return { ok: false, status: 403, message: `You do not have permission to do this (needs ${needs}).` };
    }
    const input = formDataToObject(formData);
    // Postgres text cannot hold U+0000: any field carrying it is refused here, before a query fails with a 500.
    const nulFields = Object.keys(input).filter((k) =>
      [input[k]].flat().some((v) => typeof v === 'string' && v.includes('\u0000')),
    );
    if (nulFields.length > 0) {
      return {
        ok: false,
        status: 422,
        errors: Object.fromEntries(nulFields.map((k) => [k, ['Must not contain the NUL character (U+0000)']])),
        message: 'Please fix the highlighted fields.',
      };
    }
    const parsed = options.schema.safeParse(input);
    if (!parsed.success) {
      return {
        ok: false,
        status: 422,
        errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
        message: 'Please fix the highlighted fields.',
      };
    }
    return handler(parsed.data, context);
  };
}

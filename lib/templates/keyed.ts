import type { Database, Executor } from '@/db/client';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotent } from '@/lib/idempotency/run-idempotent';
import { settleIdempotent, type KeyRefusal } from '@/lib/idempotency/settle';
import type { FieldErrors } from '@/lib/posts/targets';
import {
  addSnippet,
  addTemplate,
  editTemplate,
  serializeSnippet,
  serializeTemplate,
  type LibraryResult,
} from './library';
import type { TemplateInput, TemplatePatch } from './schemas';

// The library's API writes, each at most once per Idempotency-Key with the same semantics as POST /api/v1/posts
// (docs/api.md#idempotency-key-rules): the same key and body → the stored answer, replayed; the same key, another body
// → 422; while the first still runs → 409. So a retried create answers its first 201, never "name taken".

export type KeyedLibraryResult =
  | { kind: 'ok'; stored: { status: number; body: string }; replayed: boolean; resourceId: string }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'not_found' }
  | KeyRefusal;

type KeyedContext = { workspaceId: string; idempotencyKey: string };
type Rejection = { kind: 'invalid'; errors: FieldErrors } | { kind: 'not_found' };

/** The answer is kept a day: a retry comes within minutes, and a library entry has no scheduled time to outlive. */
const RETENTION_MS = 24 * 60 * 60 * 1000;

async function keyedWrite<T extends { id: string }>(
  db: Database,
  context: KeyedContext & { operation: string; request: unknown; status: 200 | 201 },
  write: (tx: Executor) => Promise<LibraryResult<T> | null>,
  serialize: (row: T) => unknown,
): Promise<KeyedLibraryResult> {
  const outcome = await runIdempotent<Rejection>(
    db,
    {
      workspaceId: context.workspaceId,
      operation: context.operation,
      key: context.idempotencyKey,
      fingerprint: fingerprint(context.request),
    },
    async (tx) => {
      const result = await write(tx);
      // A refusal is not stored: its writes roll back and the key is free for a corrected request.
      if (!result) return { store: false, rejection: { kind: 'not_found' } };
      if (!result.ok) return { store: false, rejection: { kind: 'invalid', errors: result.errors } };
      return {
        store: true,
        status: context.status,
        body: JSON.stringify(serialize(result.value)),
        resourceId: result.value.id,
        retainUntil: new Date(Date.now() + RETENTION_MS),
      };
    },
  );
  return settleIdempotent(outcome, {
    answered: ({ status, body, resourceId }, replayed): KeyedLibraryResult => ({
      kind: 'ok',
      stored: { status, body },
      replayed,
      resourceId: resourceId!,
    }),
    rejected: (rejection): KeyedLibraryResult => rejection,
  });
}

/** POST /api/v1/snippets. */
export const createSnippetOnce = (db: Database, input: Parameters<typeof addSnippet>[2], context: KeyedContext) =>
  keyedWrite(
    db,
    { ...context, operation: 'snippets.create', request: input, status: 201 },
    (tx) => addSnippet(tx, context.workspaceId, input),
    serializeSnippet,
  );

/** POST /api/v1/templates. */
export const createTemplateOnce = (db: Database, input: TemplateInput, context: KeyedContext) =>
  keyedWrite(
    db,
    { ...context, operation: 'templates.create', request: input, status: 201 },
    (tx) => addTemplate(tx, context.workspaceId, input),
    serializeTemplate,
  );

/** PATCH /api/v1/templates/{id}: the template is part of the request (the same key for another one is a 422). */
export const updateTemplateOnce = (db: Database, id: string, patch: TemplatePatch, context: KeyedContext) =>
  keyedWrite(
    db,
    // `null` (remove) and an absent field (keep) are different requests: canonicalJson keeps the null.
    { ...context, operation: 'templates.update', request: { id: id.toLowerCase(), patch }, status: 200 },
    (tx) => editTemplate(tx, context.workspaceId, id, patch),
    serializeTemplate,
  );

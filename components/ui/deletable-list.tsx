'use client';

import { useActionState } from 'react';
import type { FormAction } from '@/lib/auth/action';
import { FormStatus } from './form-status';
import { SubmitButton } from './submit-button';

export type DeletableItem = { id: string; title: string; badge?: string; body: string };

/** Items each with a Delete (its form sends `id` to `remove`); without `remove`, the list only shows them. */
export function DeletableList(props: { label: string; items: DeletableItem[]; remove?: FormAction; empty?: string }) {
  const [state, formAction, pending] = useActionState(
    props.remove ?? (async () => ({ ok: false, message: 'Not allowed' })),
    undefined,
  );
  if (props.items.length === 0) return <p className="mb-4 text-sm text-slate-600">{props.empty ?? 'None yet.'}</p>;
  return (
    <>
      <ul
        role="list"
        aria-label={props.label}
        className="mb-4 divide-y divide-slate-200 rounded-md ring-1 ring-slate-200"
      >
        {props.items.map((item) => (
          <li key={item.id} className="flex items-start justify-between gap-4 px-4 py-3 text-sm">
            <div className="min-w-0">
              <p className="font-medium text-slate-900">
                {item.title}
                {item.badge && (
                  <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs text-slate-700">{item.badge}</span>
                )}
              </p>
              <p className="mt-1 whitespace-pre-wrap text-slate-700">{item.body}</p>
            </div>
            {props.remove && (
              <form action={formAction}>
                <input type="hidden" name="id" value={item.id} />
                <SubmitButton
                  variant="secondary"
                  pending={pending}
                  pendingLabel="Deleting…"
                  aria-label={`Delete ${item.title}`}
                >
                  Delete
                </SubmitButton>
              </form>
            )}
          </li>
        ))}
      </ul>
      {state ? <FormStatus state={state} /> : null}
    </>
  );
}

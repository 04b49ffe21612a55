'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Reply = { id: string; name: string; text: string };

/** The workspace's saved replies: each with its text, and a form to add one (a name again changes its text). */
export function SavedReplies({
  replies,
  variables,
  canEdit,
  save,
  remove,
}: {
  replies: Reply[];
  variables: [string, string][];
  canEdit: boolean;
  save: FormAction;
  remove: FormAction;
}) {
  const [state, formAction, pending] = useActionState(save, undefined);
  const [removed, removeAction, removing] = useActionState(remove, undefined);
  const nameError = state?.errors?.name?.[0];
  const textError = state?.errors?.text?.[0];
  return (
    <div className="space-y-6">
      <section aria-labelledby="saved-list" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="saved-list" className="mb-3 text-base font-semibold">
          {replies.length === 0
            ? 'No saved replies yet'
            : `${replies.length} saved ${replies.length === 1 ? 'reply' : 'replies'}`}
        </h2>
        <ul role="list" aria-label="Saved replies" className="divide-y divide-slate-200">
          {replies.map((r) => (
            <li key={r.id} className="flex items-start justify-between gap-4 py-3">
              <div className="min-w-0">
                <p className="text-sm font-semibold text-slate-900">{r.name}</p>
                <p className="whitespace-pre-wrap text-sm text-slate-700">{r.text}</p>
              </div>
              {canEdit && (
                <form action={removeAction}>
                  <input type="hidden" name="id" value={r.id} />
                  <Button type="submit" variant="secondary" disabled={removing} aria-label={`Delete ${r.name}`}>
                    Delete
                  </Button>
                </form>
              )}
            </li>
          ))}
        </ul>
        <FormStatus state={removed} />
      </section>
      {canEdit && (
        <section aria-labelledby="saved-add" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 id="saved-add" className="mb-3 text-base font-semibold">
            Add a saved reply
          </h2>
          <form action={formAction} className="space-y-3" noValidate>
            <Field id="saved-name" label="Name" error={nameError}>
              <input
                {...fieldAria('saved-name', { error: nameError })}
                name="name"
                className={inputClass}
                maxLength={80}
              />
            </Field>
            <Field
              id="saved-text"
              label="Text"
              error={textError}
              description={`Variables: ${variables.map(([name, what]) => `{${name}} (${what})`).join(', ')}.`}
            >
              <textarea
                {...fieldAria('saved-text', { error: textError, description: true })}
                name="text"
                rows={3}
                className={inputClass}
              />
            </Field>
            <SubmitButton pending={pending} pendingLabel="Saving…">
              Save reply
            </SubmitButton>
            <FormStatus state={state} />
          </form>
        </section>
      )}
    </div>
  );
}

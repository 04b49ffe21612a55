'use client';

import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError, fieldAria, inputClass } from '@/components/ui/field';
import { LocalTime } from '@/components/ui/local-time';
import type { FormAction } from '@/lib/auth/action';
import type { InboxItemRead } from '@/lib/reads/inbox';
import { form } from './inbox-actions';

/** The team's internal notes on an item (never sent anywhere); each note keyed, so a resubmission adds none. */
export function Notes({ item, action, onAdded }: { item: InboxItemRead; action: FormAction; onAdded: () => void }) {
  const [text, setText] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [error, setError] = useState<string | undefined>();
  const [pending, startTransition] = useTransition();
  return (
    <section aria-label="Internal notes" className="space-y-2 border-t border-slate-200 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">Internal notes</h3>
      {item.notes.length > 0 && (
        <ul className="space-y-1 text-sm">
          {item.notes.map((n) => (
            <li key={n.id} className="text-slate-800">
              <span className="font-medium">{n.userName ?? 'A former member'}</span>{' '}
              <span className="text-xs text-slate-600">
                <LocalTime iso={n.createdAt} />
              </span>
              <p className="whitespace-pre-wrap">{n.text}</p>
            </li>
          ))}
        </ul>
      )}
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          startTransition(async () => {
            const result = await action(undefined, form({ itemId: item.id, text, key }));
            setError(result.ok ? undefined : (result.errors?.text?.[0] ?? result.message));
            if (result.ok) {
              setText('');
              setKey(crypto.randomUUID());
              onAdded();
            }
          });
        }}
      >
        <label htmlFor="note-text" className="sr-only">
          New note
        </label>
        <textarea
          {...fieldAria('note-text', { error })}
          rows={2}
          className={inputClass}
          placeholder="Only your team sees notes"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <FieldError id="note-text" error={error} />
        <Button type="submit" variant="secondary" disabled={pending || text.trim() === ''}>
          Add note
        </Button>
      </form>
    </section>
  );
}

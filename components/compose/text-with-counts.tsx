'use client';

import { useRef } from 'react';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ComposeAccount } from './accounts-picker';
import { SnippetPicker, useSlashSnippets, type ComposeSnippet } from './snippets';

type Props = {
  text: string;
  selected: ComposeAccount[];
  error?: string;
  onChange: (text: string) => void;
  /** The workspace's snippets: `/` in the text, or the picker, inserts one. */
  snippets?: ComposeSnippet[];
};

/** The text, with a live count against each chosen network's limit, counted its way (X and Mastodon before any is chosen). */
export function TextWithCounts({ text, selected, error, onChange, snippets = [] }: Props) {
  const providers = selected.length ? [...new Set(selected.map((a) => a.provider))] : (['x', 'mastodon'] as const);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const slash = useSlashSnippets({ snippets, text, onChange, textarea });
  return (
    <Field id="text" label="Text" error={error}>
      <textarea
        {...fieldAria('text', { error, extra: ['text-count'] })}
        {...(snippets.length > 0 ? slash.textareaProps : {})}
        ref={textarea}
        name="text"
        rows={5}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
      />
      {slash.list}
      <p id="text-count" className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600" aria-live="polite">
        {providers.map((p) => {
          const { countText, textLimit, label } = PROVIDER_META[p];
          const count = countText(text);
          return (
            <span key={p} className={count > textLimit ? 'font-semibold text-rose-700' : ''}>
              {count}/{textLimit} {label}
            </span>
          );
        })}
      </p>
      <SnippetPicker snippets={snippets} onInsert={slash.insert} />
    </Field>
  );
}

import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { characterCount, TEXT_LIMITS } from '@/lib/posts/post-input';
import { PROVIDER_LABEL } from '@/lib/providers/labels';
import type { ComposeAccount } from './accounts-picker';

type Props = { text: string; selected: ComposeAccount[]; error?: string; onChange: (text: string) => void };

/** The text, with a live count against each chosen network's limit (both X and Mastodon before any is chosen). */
export function TextWithCounts({ text, selected, error, onChange }: Props) {
  const count = characterCount(text);
  const providers = selected.length ? [...new Set(selected.map((a) => a.provider))] : (['x', 'mastodon'] as const);
  return (
    <Field id="text" label="Text" error={error}>
      <textarea
        {...fieldAria('text', { error, extra: ['text-count'] })}
        name="text"
        rows={5}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
      />
      <p id="text-count" className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600" aria-live="polite">
        {providers.map((p) => (
          <span key={p} className={count > TEXT_LIMITS[p] ? 'font-semibold text-rose-700' : ''}>
            {count}/{TEXT_LIMITS[p]} {PROVIDER_LABEL[p]}
          </span>
        ))}
      </p>
    </Field>
  );
}

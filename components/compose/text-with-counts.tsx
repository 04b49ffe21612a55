import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ComposeAccount } from './accounts-picker';

type Props = { text: string; selected: ComposeAccount[]; error?: string; onChange: (text: string) => void };

/** The text, with a live count against each chosen network's limit, counted its way (X and Mastodon before any is chosen). */
export function TextWithCounts({ text, selected, error, onChange }: Props) {
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
    </Field>
  );
}

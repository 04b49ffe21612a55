'use client';

import { FieldError } from '@/components/ui/field';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ComposeAccount } from './accounts-picker';

type Props = {
  selected: ComposeAccount[];
  /** The chosen format by account id; an account without one publishes the network's default. */
  formats: Record<string, string>;
  errorFor: (field: string) => string | undefined;
  onChange: (accountId: string, format: string | undefined) => void;
};

/**
 * "Post as" for each chosen account whose network publishes a post more than one way (PROVIDER_META `formats`:
 * Instagram's Story). Radios in a fieldset per account, so the keyboard moves between them with the arrows; the
 * server checks the choice again (a Story is one image or one video).
 */
export function FormatPicker({ selected, formats, errorFor, onChange }: Props) {
  const choosers = selected.filter((a) => (PROVIDER_META[a.provider].formats ?? []).length > 0);
  if (choosers.length === 0) return null;
  return (
    <div className="space-y-3">
      {choosers.map((account) => {
        const { label, formats: options = [] } = PROVIDER_META[account.provider];
        const id = `format-${account.id}`;
        const error = errorFor(`formats.${account.id}`);
        const chosen = formats[account.id];
        return (
          <fieldset
            key={account.id}
            aria-describedby={`${id}-error`}
            className="rounded-md border border-slate-200 p-3"
          >
            <legend className="px-1 text-sm font-medium text-slate-800">
              Post as on {account.handle} ({label})
            </legend>
            <div className="flex flex-wrap gap-4">
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${id}-choice`}
                  checked={chosen === undefined}
                  onChange={() => onChange(account.id, undefined)}
                />
                Post{' '}
                <span className="text-slate-500">
                  (
                  {PROVIDER_META[account.provider].formatDefaultHelp ??
                    'a carousel for several images, a Reel for one video'}
                  )
                </span>
              </label>
              {options.map((option) => (
                <label key={option.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={`${id}-choice`}
                    checked={chosen === option.id}
                    onChange={() => onChange(account.id, option.id)}
                  />
                  {option.label} <span className="text-slate-500">({option.help})</span>
                </label>
              ))}
            </div>
            <FieldError id={id} error={error} />
          </fieldset>
        );
      })}
    </div>
  );
}

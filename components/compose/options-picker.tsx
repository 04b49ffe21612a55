'use client';

import type { ProviderName } from '@/lib/providers/types';
import type { ComposeAccount } from './accounts-picker';
import { TiktokOptions } from './tiktok-options';
import { YoutubeOptions } from './youtube-options';

type Props = {
  selected: ComposeAccount[];
  /** The options chosen so far, by account id. */
  options: Record<string, Record<string, unknown>>;
  errorFor: (field: string) => string | undefined;
  onChange: (accountId: string, options: Record<string, unknown>) => void;
};

/** Each network's own settings panel for its per-post options (ProviderMeta `options`); one per chosen account. */
const PANELS: Partial<Record<ProviderName, typeof TiktokOptions>> = { tiktok: TiktokOptions, youtube: YoutubeOptions };

/** The per-post options of each chosen account whose network asks for some (`options` in the API). */
export function OptionsPicker({ selected, options, errorFor, onChange }: Props) {
  const withPanels = selected.filter((a) => PANELS[a.provider]);
  if (withPanels.length === 0) return null;
  return (
    <div className="space-y-3">
      {withPanels.map((account) => {
        const Panel = PANELS[account.provider]!;
        return (
          <Panel
            key={account.id}
            account={account}
            options={options[account.id] ?? {}}
            errorFor={errorFor}
            onChange={(next) => onChange(account.id, next)}
          />
        );
      })}
    </div>
  );
}

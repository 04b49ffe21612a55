import { FieldError } from '@/components/ui/field';
import { PROVIDER_LABEL } from '@/lib/providers/labels';
import type { ProviderName } from '@/lib/providers/types';

export type ComposeAccount = {
  id: string;
  handle: string;
  provider: ProviderName;
  displayName: string | null;
};

type Props = {
  accounts: ComposeAccount[];
  selectedIds: string[];
  error?: string;
  onChange: (accountIds: string[]) => void;
};

/** One checkbox per connected account; the post goes to each one ticked (one delivery each). */
export function AccountsPicker({ accounts, selectedIds, error, onChange }: Props) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-900">Accounts</legend>
      {accounts.length === 0 && (
        <p className="mt-1 text-sm text-slate-600">No accounts yet: an admin can connect one under Accounts.</p>
      )}
      <div className="mt-2 grid gap-2 sm:grid-cols-2" aria-describedby={error ? 'accountIds-error' : undefined}>
        {accounts.map((a) => (
          <label
            key={a.id}
            className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50"
          >
            <input
              type="checkbox"
              name="accountIds"
              value={a.id}
              checked={selectedIds.includes(a.id)}
              onChange={(e) =>
                onChange(e.target.checked ? [...selectedIds, a.id] : selectedIds.filter((id) => id !== a.id))
              }
            />
            <span>
              {a.displayName ?? a.handle}{' '}
              <span className="text-slate-500">
                {a.handle} · {PROVIDER_LABEL[a.provider]}
              </span>
            </span>
          </label>
        ))}
      </div>
      <FieldError id="accountIds" error={error} />
    </fieldset>
  );
}

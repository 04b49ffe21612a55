import type { ProviderName } from '@/db/schema';
import { DayField } from '@/components/ui/day-field';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';

type Account = { id: string; handle: string; provider: ProviderName; disconnected: boolean };

/**
 * The period (whole days in the workspace's zone) and the accounts, as a GET form: the filtered page has its own
 * address (shareable, and the back button works). No account ticked means every account.
 */
export function AnalyticsFilters({
  fromDay,
  toDay,
  accounts,
  selected,
  timeZone,
  errors,
}: {
  fromDay: string;
  toDay: string;
  accounts: Account[];
  selected: string[] | null;
  timeZone: string;
  errors: Record<string, string>;
}) {
  return (
    <form
      method="get"
      aria-label="Analytics filters"
      className="mb-6 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 print:hidden"
    >
      <div className="flex flex-wrap items-end gap-4">
        <DayField idPrefix="analytics" name="from" label="From" value={fromDay} error={errors.from} />
        <DayField idPrefix="analytics" name="to" label="To (included)" value={toDay} error={errors.to} />
        <p className="text-xs text-slate-500">Days in {timeZone}.</p>
      </div>
      {accounts.length > 0 && (
        <fieldset className="mt-4">
          <legend className="text-sm font-medium text-slate-700">Accounts (none ticked: all)</legend>
          <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
            {accounts.map((a) => (
              <label key={a.id} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="account"
                  value={a.id}
                  defaultChecked={selected?.includes(a.id) ?? false}
                  className="h-4 w-4 rounded border-slate-400 text-indigo-600"
                />
                {a.handle}{' '}
                <span className="text-slate-500">
                  ({PROVIDER_LABEL[a.provider]}
                  {a.disconnected ? ', disconnected' : ''})
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <button
        type="submit"
        className="mt-4 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Show
      </button>
    </form>
  );
}

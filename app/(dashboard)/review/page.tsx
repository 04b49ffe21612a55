import { z } from 'zod';
import { ReviewItem } from '@/components/review/review-item';
import { EmptyState } from '@/components/ui/empty-state';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listReviewItems } from '@/db/queries/review';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { resolveReviewAction } from './actions';

export const metadata = { title: 'Review' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const filtersSchema = z.object({
  state: z.enum(['ambiguous', 'needs_review']).optional().catch(undefined),
  account: z.uuid().optional().catch(undefined),
  age: z.coerce.number().int().min(1).max(525_600).optional().catch(undefined),
});

/** Every ambiguous or needs_review delivery in the workspaces the user administers, grouped by client workspace. */
export default async function ReviewPage({ searchParams }: { searchParams: Search }) {
  const { memberships } = await requirePageWorkspace();
  const adminOf = memberships.filter((m) => can(m.role, 'review'));
  if (adminOf.length === 0) return <Forbidden capability="review" />;
  const params = await searchParams;
  // Filters come from the URL: anything malformed is ignored rather than reaching the database.
  const {
    state: status,
    account,
    age,
  } = filtersSchema.parse({ state: one(params.state), account: one(params.account), age: one(params.age) });
  const items = await listReviewItems(getDb(), {
    workspaceIds: adminOf.map((m) => m.id),
    status,
    accountId: account,
    olderThanMinutes: age,
  });
  const groups = new Map<string, typeof items>();
  for (const item of items) groups.set(item.workspaceName, [...(groups.get(item.workspaceName) ?? []), item]);
  const accounts = [...new Map(items.map((i) => [i.accountId, i.handle])).entries()];
  return (
    <>
      <PageHeader
        title="Review"
        description="Deliveries whose outcome is not yet known, or that need your decision — across every workspace you administer."
      />
      <form className="mb-6 flex flex-wrap items-end gap-3 text-sm" aria-label="Filters">
        <label>
          State
          <select
            name="state"
            defaultValue={status ?? ''}
            className="ml-2 rounded-md border border-slate-300 px-2 py-1"
          >
            <option value="">All</option>
            <option value="ambiguous">Being verified</option>
            <option value="needs_review">Needs review</option>
          </select>
        </label>
        <label>
          Account
          <select
            name="account"
            defaultValue={account ?? ''}
            className="ml-2 rounded-md border border-slate-300 px-2 py-1"
          >
            <option value="">All</option>
            {accounts.map(([id, handle]) => (
              <option key={id} value={id}>
                {handle}
              </option>
            ))}
          </select>
        </label>
        <label>
          Older than
          <select
            name="age"
            defaultValue={String(age || '')}
            className="ml-2 rounded-md border border-slate-300 px-2 py-1"
          >
            <option value="">Any age</option>
            <option value="15">15 minutes</option>
            <option value="60">1 hour</option>
            <option value="1440">1 day</option>
          </select>
        </label>
        <button className="rounded-md bg-white px-3 py-1 font-medium ring-1 ring-slate-300">Filter</button>
      </form>
      {items.length === 0 ? (
        <EmptyState title="Nothing needs review">
          When a platform call ends with an unknown outcome and reconciliation cannot settle it, the delivery waits here
          with its evidence.
        </EmptyState>
      ) : (
        [...groups].map(([workspaceName, group]) => (
          <section key={workspaceName} aria-label={workspaceName} className="mb-8">
            <h2 className="mb-2 text-sm font-semibold text-slate-700">
              {workspaceName} <span className="font-normal text-slate-500">({group.length})</span>
            </h2>
            <ul role="list" className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
              {group.map((item) => (
                <ReviewItem
                  key={item.deliveryId}
                  action={resolveReviewAction}
                  item={{
                    ...item,
                    updatedAt: item.updatedAt.toISOString(),
                    nextCheckAt: item.nextCheckAt?.toISOString() ?? null,
                  }}
                />
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  );
}

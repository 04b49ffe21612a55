import Link from 'next/link';
import { ScheduleDraft } from '@/components/drafts/schedule-draft';
import { CancelButton } from '@/components/queue/cancel-button';
import { EmptyState } from '@/components/ui/empty-state';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { readDrafts } from '@/lib/reads/drafts';
import { cancelPostAction } from '../queue/actions';
import { scheduleDraftAction } from './actions';

export const metadata = { title: 'Drafts' };

export default async function DraftsPage() {
  const { workspace, role } = await requirePageWorkspace();
  const drafts = await readDrafts(getDb(), { workspaceId: workspace.id });
  return (
    <>
      <PageHeader
        title="Drafts"
        description="Saved without scheduling: nothing here is published until you schedule it."
      />
      {drafts.length === 0 ? (
        <EmptyState
          title="No drafts"
          action={
            can(role, 'compose') ? (
              <Link href="/compose" className="text-sm font-semibold text-indigo-700 hover:underline">
                Write one →
              </Link>
            ) : undefined
          }
        >
          &ldquo;Save draft&rdquo; in the composer keeps a post here. Drafts also show on the calendar, dashed, at their
          planned time.
        </EmptyState>
      ) : (
        <ul aria-label="Drafts" className="space-y-3">
          {drafts.map((d) => (
            <li
              key={d.id}
              data-testid="draft"
              className="rounded-lg border border-dashed border-slate-400 bg-white p-4 text-sm"
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <Link href={`/posts/${d.id}`} className="line-clamp-2 font-medium text-slate-900 hover:underline">
                    {d.text}
                  </Link>
                  {d.requestedBy && <p className="mt-1 font-medium text-indigo-800">Requested by {d.requestedBy}</p>}
                  <p className="mt-1 text-slate-600">
                    {d.handles.join(', ')} · planned for <LocalTime iso={d.scheduledAt} />
                    {Object.keys(d.variants).length > 0 && ` · ${Object.keys(d.variants).length} with their own text`}
                  </p>
                </div>
                {can(role, 'cancel') && <CancelButton postId={d.id} label="Discard" action={cancelPostAction} />}
              </div>
              {can(role, 'edit') && (
                <div className="mt-3 flex flex-wrap gap-2">
                  <ScheduleDraft postId={d.id} plannedAt={d.scheduledAt} action={scheduleDraftAction} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

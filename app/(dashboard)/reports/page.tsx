import Link from 'next/link';
import { count } from '@/components/analytics/format';
import { PrintButton } from '@/components/reports/print-button';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { DayField } from '@/components/ui/day-field';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { appOrigin } from '@/lib/providers';
import { checkReportPeriod } from '@/lib/reports/period';
import { readPublicationReport, SETTLEMENT_LABEL, type Settlement } from '@/lib/reports/publication';

export const metadata = { title: 'Proof of publication' };

const TONE: Record<Settlement, BadgeTone> = {
  direct: 'green',
  reconciled: 'blue',
  admin: 'violet',
  missed: 'amber',
  failed: 'red',
  canceled: 'gray',
  open: 'gray',
};

const INCIDENT_LABEL = {
  ambiguous: 'Unknown outcome',
  review_decision: 'Review decision',
  duplicates: 'Extra copies',
  late_copy: 'A late copy appeared',
};

function lateness(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return 'on time';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min late`;
  return `${(seconds / 3600).toFixed(1)} h late`;
}

export default async function ReportsPage({ searchParams }: { searchParams: Promise<{ from?: string; to?: string }> }) {
  const { workspace } = await requirePageWorkspace();
  const db = getDb();
  const timeZone = (await getWorkspaceSettings(db, { workspaceId: workspace.id }))?.timeZone ?? 'UTC';
  const checked = checkReportPeriod(await searchParams, timeZone);
  const fromDay = checked.ok ? checked.period.fromDay : checked.fromDay;
  const toDay = checked.ok ? checked.period.toDay : checked.toDay;
  const report = checked.ok
    ? await readPublicationReport(db, { workspaceId: workspace.id, range: checked.period.range, origin: appOrigin() })
    : null;
  const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const at = (iso: string) => when.format(new Date(iso));
  const csvHref = `/reports/csv?from=${encodeURIComponent(fromDay)}&to=${encodeURIComponent(toDay)}`;

  return (
    <>
      <PageHeader
        title="Proof of publication"
        description={
          <>
            {workspace.name}: every post scheduled from {fromDay} to {toDay}, when it went out and how we know. Times in{' '}
            {timeZone}.
          </>
        }
        actions={
          report && (
            <div className="flex gap-2 print:hidden">
              <a
                href={csvHref}
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
              >
                Download CSV
              </a>
              <a
                href={`/reports/pdf?from=${encodeURIComponent(fromDay)}&to=${encodeURIComponent(toDay)}`}
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
              >
                Download PDF
              </a>
              <PrintButton />
            </div>
          )
        }
      />

      <form method="get" aria-label="Report period" className="mb-6 flex flex-wrap items-end gap-4 print:hidden">
        <DayField
          idPrefix="period"
          name="from"
          label="From"
          value={fromDay}
          error={checked.ok ? undefined : checked.errors.from}
        />
        <DayField
          idPrefix="period"
          name="to"
          label="To (included)"
          value={toDay}
          error={checked.ok ? undefined : checked.errors.to}
        />
        <button
          type="submit"
          className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-500"
        >
          Show report
        </button>
      </form>

      {report && (
        <>
          <dl aria-label="Totals" className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-9">
            <Stat label="Deliveries" value={report.totals.deliveries} />
            <Stat label="Sent" value={report.totals.sent} />
            {(Object.keys(SETTLEMENT_LABEL) as Settlement[]).map((s) => (
              <Stat key={s} label={SETTLEMENT_LABEL[s]} value={report.totals[s]} />
            ))}
          </dl>

          <section aria-labelledby="performance" className="mb-6 break-inside-avoid">
            <h2 id="performance" className="mb-3 text-lg font-semibold text-slate-900">
              Performance
            </h2>
            <dl aria-label="Performance totals" className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
              <Stat label="Deliveries read" value={report.performance.read} />
              <Stat label="Engagement" value={report.performance.engagement} />
              <Stat label="Views" value={report.performance.views} />
              <Stat label="Likes" value={report.performance.likes} />
              <Stat label="Reposts" value={report.performance.reposts} />
              <Stat label="Replies" value={report.performance.replies} />
              <Stat label="Saves" value={report.performance.saves} />
            </dl>
            <p className="mt-2 text-xs text-slate-500">
              The latest reading of each sent delivery (an hour, a day, a week and a month after it went out); “—”: not
              read yet, or no network here gives that metric.{' '}
              <Link href="/analytics" className="underline print:hidden">
                Analytics
              </Link>
            </p>
          </section>

          {report.rows.length === 0 ? (
            <EmptyState title="Nothing scheduled in this period">
              Pick other dates: the report lists every post scheduled between them.
            </EmptyState>
          ) : (
            <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200 print:overflow-visible print:shadow-none">
              <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Deliveries">
                <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Scheduled
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Published
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Account
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Post
                    </th>
                    <th scope="col" className="px-3 py-2">
                      How it was settled
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Performance
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {report.rows.map((r, i) => (
                    <tr key={i} className="align-top break-inside-avoid">
                      <td className="px-3 py-2 whitespace-nowrap">{at(r.scheduledAt)}</td>
                      <td className="px-3 py-2 whitespace-nowrap">
                        {r.publishedAt ? (
                          <>
                            {at(r.publishedAt)}
                            <span className="block text-xs text-slate-500">{lateness(r.latenessSeconds)}</span>
                          </>
                        ) : (
                          <span className="text-slate-500">—</span>
                        )}
                      </td>
                      <td className="px-3 py-2">
                        {r.account}
                        <span className="block text-xs text-slate-500">{r.network}</span>
                      </td>
                      <td className="max-w-xs px-3 py-2">
                        <span className="line-clamp-3 print:line-clamp-none">{r.text}</span>
                        {r.part && <span className="block text-xs text-slate-500">{r.part}</span>}
                        {r.link && (
                          <a href={r.link} className="text-xs text-indigo-700 underline print:break-all">
                            <span className="print:hidden">View on {r.network}</span>
                            <span className="hidden print:inline">{r.link}</span>
                          </a>
                        )}
                      </td>
                      <td className="max-w-sm px-3 py-2">
                        <Badge tone={TONE[r.settlement]}>{SETTLEMENT_LABEL[r.settlement]}</Badge>
                        <p className="mt-1 text-xs text-slate-600">{r.how}</p>
                      </td>
                      <td className="px-3 py-2 text-right text-xs whitespace-nowrap text-slate-700 tabular-nums">
                        {r.performance ? (
                          <>
                            <span className="block text-sm font-medium text-slate-900">
                              {count(r.performance.engagement)} engagement
                            </span>
                            {r.performance.views !== null && (
                              <span className="block">{count(r.performance.views)} views</span>
                            )}
                            <span className="block">
                              {count(r.performance.likes)} likes · {count(r.performance.replies)} replies
                            </span>
                          </>
                        ) : (
                          <span className="text-slate-500">—</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <section aria-labelledby="incidents" className="mt-8 break-inside-avoid">
            <h2 id="incidents" className="mb-3 text-lg font-semibold text-slate-900">
              Incidents
            </h2>
            {report.incidents.length === 0 ? (
              <p className="text-sm text-slate-600">
                None: every call had a clear answer and nothing needed a decision.
              </p>
            ) : (
              <ul aria-label="Incidents" className="space-y-2 text-sm">
                {report.incidents.map((incident, i) => (
                  <li key={i} className="rounded-md bg-white p-3 ring-1 ring-slate-200">
                    <span className="font-medium">{INCIDENT_LABEL[incident.kind]}</span> · {at(incident.at)} ·{' '}
                    {incident.account}
                    <span className="block text-slate-600">
                      “{incident.text.length > 80 ? `${incident.text.slice(0, 80)}…` : incident.text}”:{' '}
                      {incident.detail}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <p className="mt-8 text-xs text-slate-500 print:block">
            Generated by Semel on {at(new Date().toISOString())}. “Confirmed by reconciliation” means the platform call
            had no clear answer and a read of the platform found the post: it was never sent twice.{' '}
            <Link href="/review" className="underline print:hidden">
              Review queue
            </Link>
          </p>
        </>
      )}
    </>
  );
}

function Stat({ label, value }: { label: string; value: number | null }) {
  return (
    <div className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200 print:shadow-none">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-xl font-semibold text-slate-900">{count(value)}</dd>
    </div>
  );
}

import { LocalTime } from '@/components/ui/local-time';
import { METRIC_LABELS, METRIC_NAMES, type MetricName } from '@/lib/analytics/metrics';
import type { DeliveryMetricsView } from '@/lib/analytics/post-history';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import { count } from './format';

const STATE: Record<DeliveryMetricsView['state'], string> = {
  waiting: 'Not read yet: the first reading is an hour after it goes out.',
  reading: 'Read again at each due time.',
  done: 'Every reading taken.',
  deleted: 'Deleted on the network: no longer read.',
  unsupported: 'The network gives no metrics for this post.',
};

/** Each delivery's metric history (one row per reading); a metric its network does not give shows "—". */
export function PostMetrics({ deliveries, parts }: { deliveries: DeliveryMetricsView[]; parts: boolean }) {
  const shown = deliveries.filter((d) => d.readings.length > 0 || d.state !== 'waiting');
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="post-metrics" className="mt-8">
      <h2 id="post-metrics" className="mb-3 text-base font-semibold">
        Metrics
      </h2>
      <div className="space-y-4">
        {shown.map((d) => {
          const given = METRIC_NAMES.filter((m) => d.readings.some((r) => r.metrics[m] !== null));
          const name = `${d.account} on ${PROVIDER_LABEL[d.provider]}${parts ? `, part ${d.part + 1}` : ''}`;
          return (
            <div key={d.deliveryId} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
              <p className="text-sm font-semibold text-slate-800">{name}</p>
              <p className="mb-2 text-xs text-slate-600">
                {STATE[d.state]}
                {d.state === 'reading' && d.nextReadingAt && (
                  <> Next reading: {d.nextReadingDue ? 'due now' : <LocalTime iso={d.nextReadingAt} />}.</>
                )}
                {d.stoppedAt && d.state === 'deleted' && (
                  <>
                    {' '}
                    Found deleted <LocalTime iso={d.stoppedAt} />.
                  </>
                )}
              </p>
              {d.readings.length > 0 && (
                <div className="overflow-x-auto">
                  <table className="min-w-full text-left text-sm" aria-label={`Metric history: ${name}`}>
                    <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
                      <tr>
                        <th scope="col" className="px-3 py-1.5">
                          Reading
                        </th>
                        <th scope="col" className="px-3 py-1.5">
                          Read at
                        </th>
                        {given.map((m: MetricName) => (
                          <th key={m} scope="col" className="px-3 py-1.5 text-right">
                            {METRIC_LABELS[m]}
                          </th>
                        ))}
                        <th scope="col" className="px-3 py-1.5 text-right">
                          Engagement
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {d.readings.map((r) => (
                        <tr key={r.readingAt}>
                          <th scope="row" className="px-3 py-1 font-medium">
                            {r.label}
                          </th>
                          <td className="px-3 py-1 whitespace-nowrap">
                            <LocalTime iso={r.takenAt} />
                          </td>
                          {given.map((m) => (
                            <td key={m} className="px-3 py-1 text-right tabular-nums">
                              {count(r.metrics[m])}
                            </td>
                          ))}
                          <td className="px-3 py-1 text-right tabular-nums">{count(r.engagement)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}

'use client';

import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MetricTotals } from '@/db/queries/analytics';
import type { ProviderName } from '@/db/schema';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import { count } from './format';

type Network = MetricTotals & { provider: ProviderName };

/** Engagement per network as labelled bars (the value is written on each bar), and the full figures in a table. */
export function NetworkBreakdown({ networks }: { networks: Network[] }) {
  const data = networks.map((n) => ({ network: PROVIDER_LABEL[n.provider], engagement: n.engagement ?? 0 }));
  return (
    <figure
      aria-labelledby="networks-title"
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 print:shadow-none"
    >
      <figcaption id="networks-title" className="mb-2 text-sm font-semibold text-slate-900">
        Engagement by network
      </figcaption>
      <div className="space-y-3">
        <div className="h-56 w-full">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={data}
              layout="vertical"
              margin={{ top: 4, right: 48, bottom: 4, left: 8 }}
              accessibilityLayer
              title="Engagement by network"
              desc="Bar chart; the table below has every figure."
            >
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
              <XAxis type="number" tick={{ fontSize: 12, fill: '#334155' }} tickFormatter={(v: number) => count(v)} />
              <YAxis type="category" dataKey="network" width={90} tick={{ fontSize: 12, fill: '#334155' }} />
              <Tooltip formatter={(v) => count(typeof v === 'number' ? v : null)} />
              <Bar dataKey="engagement" name="Engagement" fill="#4338ca" isAnimationActive={false}>
                <LabelList
                  dataKey="engagement"
                  position="right"
                  formatter={(v) => count(typeof v === 'number' ? v : null)}
                  fill="#0f172a"
                  fontSize={12}
                />
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className="overflow-x-auto">
          <table className="min-w-full text-left text-sm" aria-label="Figures by network">
            <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-1.5">
                  Network
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Posts
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Engagement
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Views
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Likes
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Reposts
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Replies
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Engagement per post
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {networks.map((n) => (
                <tr key={n.provider}>
                  <th scope="row" className="px-3 py-1 font-medium">
                    {PROVIDER_LABEL[n.provider]}
                  </th>
                  <td className="px-3 py-1 text-right tabular-nums">{count(n.posts)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(n.engagement)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(n.views)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(n.likes)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(n.reposts)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(n.replies)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">
                    {n.engagement === null || n.posts === 0 ? '—' : count(n.engagement / n.posts)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        “—”: the network does not give that metric (it is never counted as zero).{' '}
        {networks.length === 0 && 'No posts in this period.'}
      </p>
    </figure>
  );
}

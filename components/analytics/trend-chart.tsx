'use client';

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DayPoint } from '@/lib/analytics/summary';
import { count } from './format';

/**
 * Engagement (by the day posts went out) and followers over the period, one line each on its own axis: told apart by
 * name, dash and axis, not colour alone; drawn without animation (nothing moves). The chart is keyboard-focusable (arrow keys move its tooltip), and the same
 * numbers are in the data table below it.
 */
export function TrendChart({ series }: { series: DayPoint[] }) {
  return (
    <figure
      aria-labelledby="trend-title"
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 print:shadow-none"
    >
      <figcaption id="trend-title" className="mb-2 text-sm font-semibold text-slate-900">
        Engagement and followers by day
      </figcaption>
      <div className="h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={series}
            margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
            accessibilityLayer
            title="Engagement and followers by day"
            desc="Line chart; the data table below has every point. Arrow keys move between days."
          >
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis dataKey="day" tick={{ fontSize: 12, fill: '#334155' }} tickFormatter={(d: string) => d.slice(5)} />
            <YAxis
              yAxisId="engagement"
              tick={{ fontSize: 12, fill: '#334155' }}
              tickFormatter={(v: number) => count(v)}
            />
            <YAxis
              yAxisId="followers"
              orientation="right"
              tick={{ fontSize: 12, fill: '#334155' }}
              tickFormatter={(v: number) => count(v)}
              domain={['auto', 'auto']}
            />
            <Tooltip formatter={(v) => count(typeof v === 'number' ? v : null)} />
            <Legend />
            <Line
              yAxisId="engagement"
              type="monotone"
              dataKey="engagement"
              name="Engagement (left axis)"
              stroke="#4338ca"
              strokeWidth={2}
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
            <Line
              yAxisId="followers"
              type="monotone"
              dataKey="followers"
              name="Followers (right axis)"
              stroke="#b45309"
              strokeWidth={2}
              strokeDasharray="6 3"
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-indigo-700 underline">
          Data table: engagement and followers by day
        </summary>
        <div className="mt-2 max-h-80 overflow-auto">
          <table className="min-w-full text-left text-sm" aria-label="Engagement and followers by day">
            <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-1.5">
                  Day
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
                  Followers
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {series.map((p) => (
                <tr key={p.day}>
                  <th scope="row" className="px-3 py-1 font-normal whitespace-nowrap">
                    {p.day}
                  </th>
                  <td className="px-3 py-1 text-right tabular-nums">{count(p.posts)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(p.engagement)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(p.views)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{count(p.followers)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

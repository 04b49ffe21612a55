import type { MetricTotals } from '@/db/queries/analytics';
import type { FollowerFigures } from '@/lib/analytics/summary';
import { changeOf } from '@/lib/analytics/summary';
import { changeText, count } from './format';

type Card = { label: string; value: number | null; previous: number | null; hint?: string };

/** The period's totals, each with its change against the previous period (in words and an arrow, not colour only). */
export function AnalyticsTotals({
  current,
  previous,
  followers,
  previousLabel,
}: {
  current: MetricTotals;
  previous: MetricTotals;
  followers: FollowerFigures;
  previousLabel: string;
}) {
  const cards: Card[] = [
    { label: 'Posts published', value: current.posts, previous: previous.posts },
    {
      label: 'Engagement',
      value: current.engagement,
      previous: previous.engagement,
      hint: 'likes, reposts, replies, quotes, saves, clicks',
    },
    { label: 'Views', value: current.views, previous: previous.views, hint: 'where the network counts them' },
    { label: 'Likes', value: current.likes, previous: previous.likes },
    { label: 'Reposts', value: current.reposts, previous: previous.reposts },
    { label: 'Replies', value: current.replies, previous: previous.replies },
    { label: 'Followers', value: followers.end, previous: null, hint: 'at the end of the period' },
    { label: 'New followers', value: followers.change, previous: followers.previousChange },
  ];
  return (
    <dl aria-label="Totals" className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
      {cards.map((card) => {
        const change =
          card.previous === null && card.label === 'Followers' ? undefined : changeOf(card.value, card.previous);
        return (
          <div
            key={card.label}
            role="group"
            aria-labelledby={`total-${card.label.replace(/\s+/g, '-')}`}
            className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200 print:shadow-none"
          >
            <dt id={`total-${card.label.replace(/\s+/g, '-')}`} className="text-xs text-slate-600">
              {card.label}
              {card.hint && <span className="sr-only"> ({card.hint})</span>}
            </dt>
            <dd className="text-2xl font-semibold text-slate-900">{count(card.value)}</dd>
            {change !== undefined && (
              <dd
                className={`text-xs ${change === null ? 'text-slate-500' : change >= 0 ? 'text-emerald-800' : 'text-rose-800'}`}
              >
                <span aria-hidden="true">{change === null ? '' : change >= 0 ? '▲ ' : '▼ '}</span>
                {changeText(change)} <span className="text-slate-500">vs {previousLabel}</span>
              </dd>
            )}
          </div>
        );
      })}
    </dl>
  );
}

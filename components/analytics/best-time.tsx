import type { HourCell } from '@/lib/analytics/summary';
import { compact, count, hourRange, WEEKDAYS } from './format';

/**
 * "Best time to post": average engagement per post by weekday and hour of the workspace's zone, from its own history.
 * A table whose cells carry their number (the shade only repeats it), so nothing is told by colour alone.
 */
export function BestTime({
  hours,
  best,
  timeZone,
  historyDays,
}: {
  hours: HourCell[];
  best: HourCell | null;
  timeZone: string;
  historyDays: number;
}) {
  const byCell = new Map(hours.map((h) => [`${h.weekday}:${h.hour}`, h]));
  const top = Math.max(1, ...hours.map((h) => h.avgEngagement));
  const shade = (value: number) => {
    const level = Math.min(4, Math.floor((value / top) * 5));
    return ['bg-white', 'bg-indigo-50', 'bg-indigo-100', 'bg-indigo-200', 'bg-indigo-300'][level];
  };
  return (
    <figure
      aria-labelledby="best-time-title"
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 print:shadow-none"
    >
      <figcaption id="best-time-title" className="text-sm font-semibold text-slate-900">
        Best time to post
      </figcaption>
      <p className="mb-3 text-sm text-slate-600">
        {best
          ? `${WEEKDAYS[best.weekday - 1]}, ${hourRange(best.hour)} (${timeZone}): ${count(best.avgEngagement)} engagement per post on average, over ${best.posts} posts.`
          : 'Not enough history yet: at least two posts in one hour of the week are needed.'}{' '}
        From your own posts of the last {historyDays} days.
      </p>
      <div className="overflow-x-auto">
        <table className="text-xs" aria-label="Average engagement per post by weekday and hour">
          <thead>
            <tr>
              <th scope="col" className="px-1 text-left font-medium text-slate-600">
                Day
              </th>
              {Array.from({ length: 24 }, (_, h) => (
                <th key={h} scope="col" className="w-8 px-0.5 text-center font-medium text-slate-600">
                  <abbr title={hourRange(h)}>{String(h).padStart(2, '0')}</abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((day, d) => (
              <tr key={day}>
                <th scope="row" className="pr-2 text-left font-medium whitespace-nowrap text-slate-700">
                  {day.slice(0, 3)}
                </th>
                {Array.from({ length: 24 }, (_, h) => {
                  const cell = byCell.get(`${d + 1}:${h}`);
                  return (
                    <td
                      key={h}
                      className={`h-7 w-8 border border-slate-100 text-center tabular-nums text-slate-900 ${cell ? shade(cell.avgEngagement) : 'bg-white'}`}
                      title={
                        cell
                          ? `${day} ${hourRange(h)}: ${count(cell.avgEngagement)} per post, ${cell.posts} posts`
                          : `${day} ${hourRange(h)}: no posts`
                      }
                    >
                      {cell ? compact(cell.avgEngagement) : ''}
                      <span className="sr-only">{cell ? ` per post, ${cell.posts} posts` : 'no posts'}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

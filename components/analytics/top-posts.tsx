import Link from 'next/link';
import type { RankedPost } from '@/db/queries/analytics';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import { count, rate } from './format';

/** The period's posts ranked by engagement rate, with what the rate is per (views, else followers). */
export function TopPosts({ posts, timeZone }: { posts: RankedPost[]; timeZone: string }) {
  const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });
  if (posts.length === 0) return <p className="text-sm text-slate-600">No post of this period has been read yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200 print:shadow-none">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Posts ranked by engagement rate">
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              Rank
            </th>
            <th scope="col" className="px-3 py-2">
              Post
            </th>
            <th scope="col" className="px-3 py-2">
              Account
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Engagement rate
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Engagement
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Views
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {posts.map((p, i) => (
            <tr key={p.deliveryId} className="align-top">
              <td className="px-3 py-2 tabular-nums">{i + 1}</td>
              <td className="max-w-md px-3 py-2">
                <Link href={`/posts/${p.postId}`} className="line-clamp-2 text-indigo-700 underline">
                  {p.text}
                </Link>
                <span className="block text-xs text-slate-500">{when.format(new Date(p.publishedAt))}</span>
              </td>
              <td className="px-3 py-2">
                {p.account}
                <span className="block text-xs text-slate-500">{PROVIDER_LABEL[p.provider]}</span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                {rate(p.rate)}
                {p.rateBasis && (
                  <span className="block text-xs text-slate-500">
                    per {p.rateBasis === 'views' ? 'view' : 'follower'}
                  </span>
                )}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{count(p.engagement)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{count(p.metrics.views)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

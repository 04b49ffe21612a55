import { PROVIDER_LABEL } from '@/lib/providers/labels';
import type { ProviderName } from '@/lib/providers/types';

export type ShortLinkRow = {
  id: string;
  shortUrl: string;
  targetUrl: string;
  network: string;
  utmCampaign: string;
  shortener: string;
  clicks: number;
};

const networkLabel = (n: string) => (n ? (PROVIDER_LABEL[n as ProviderName] ?? n) : 'any network');

/** Short links with their clicks, a plain data table (the post page and Settings → Links). */
export function ShortLinkTable({ links, caption }: { links: ShortLinkRow[]; caption: string }) {
  if (links.length === 0) return <p className="text-sm text-slate-600">No short links yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              Short link
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Goes to
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Network
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Campaign
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Clicks
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {links.map((l) => (
            <tr key={l.id}>
              <td className="py-2 pr-4 font-mono text-xs">{l.shortUrl}</td>
              <td className="max-w-xs truncate py-2 pr-4 text-slate-700" title={l.targetUrl}>
                {l.targetUrl}
              </td>
              <td className="py-2 pr-4">{networkLabel(l.network)}</td>
              <td className="py-2 pr-4 text-slate-700">{l.utmCampaign || '—'}</td>
              <td className="py-2 text-right tabular-nums">
                {l.shortener === 'semel' ? l.clicks : <span title="Counted by the external shortener">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { LocalTime } from '@/components/ui/local-time';
import type { ImportedRef, ImportRowReport } from '@/lib/imports/types';

const STATUS: Record<ImportRowReport['status'], { label: string; tone: BadgeTone }> = {
  new: { label: 'New', tone: 'blue' },
  created: { label: 'Created', tone: 'green' },
  already_imported: { label: 'Already imported', tone: 'gray' },
  invalid: { label: 'Invalid', tone: 'red' },
};

function Origin({ of }: { of: ImportedRef }) {
  return (
    <>
      row {of.row ?? '?'}
      {of.fileName ? ` of ${of.fileName}` : ''} imported on <LocalTime iso={of.importedAt} />
    </>
  );
}

/** One line per row of the file: its status badge and what it means (errors, the earlier row it repeats or edits). */
export function ImportRowsTable({ rows }: { rows: readonly ImportRowReport[] }) {
  return (
    <table aria-label="Import rows" className="w-full text-left text-sm">
      <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
        <tr>
          <th scope="col" className="py-2 pr-3">
            Row
          </th>
          <th scope="col" className="py-2 pr-3">
            Status
          </th>
          <th scope="col" className="py-2">
            Details
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={r.row} data-testid="import-row">
            <td className="py-2 pr-3 align-top text-slate-500 tabular-nums">{r.row}</td>
            <td className="py-2 pr-3 align-top">
              <span className="flex flex-wrap gap-1">
                <Badge tone={STATUS[r.status].tone}>{STATUS[r.status].label}</Badge>
                {(r.editedCopyOf || r.editedCopyUnchecked) && <Badge tone="amber">Edited copy?</Badge>}
              </span>
            </td>
            <td className="py-2 align-top text-slate-700">
              {r.errors && (
                <ul className="list-disc pl-4 text-rose-800">
                  {r.errors.map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                </ul>
              )}
              {r.alreadyImported && (
                <span>
                  Already imported from <Origin of={r.alreadyImported} />
                </span>
              )}
              {r.editedCopyOf && (
                <span>
                  Looks like an edited copy of <Origin of={r.editedCopyOf} /> — that post is kept; cancel it if this one
                  replaces it.
                </span>
              )}
              {r.editedCopyUnchecked && (
                <span>
                  Possibly an edited copy: too many rows were imported for these accounts at this time to compare them
                  all — check the calendar before this one is due.
                </span>
              )}
              {r.postId && r.status === 'created' && (
                <a href={`/posts/${r.postId}`} className="ml-1 text-indigo-700 hover:underline">
                  View post
                </a>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

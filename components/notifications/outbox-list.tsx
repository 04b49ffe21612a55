import { EmptyState } from '@/components/ui/empty-state';
import { LocalTime } from '@/components/ui/local-time';
import type { OutboxEmailRow } from '@/db/queries/notification-sends';

/** Stored emails, newest first: recipient, subject, time, and the body on demand. */
export function OutboxList({ emails }: { emails: OutboxEmailRow[] }) {
  if (emails.length === 0)
    return <EmptyState title="No emails yet">Emails appear here when a notification is sent.</EmptyState>;
  return (
    <ul role="list" aria-label="Emails" className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200">
      {emails.map((email) => (
        <li key={email.id} className="p-4" aria-label={email.subject}>
          <details>
            <summary className="flex cursor-pointer flex-wrap items-baseline justify-between gap-2">
              <span className="font-medium text-slate-900">{email.subject}</span>
              <span className="text-sm text-slate-600">
                to {email.toAddress} · <LocalTime iso={email.createdAt} />
              </span>
            </summary>
            <pre className="mt-3 text-sm whitespace-pre-wrap text-slate-800">{email.body}</pre>
          </details>
        </li>
      ))}
    </ul>
  );
}

import { Badge, type BadgeTone } from '@/components/ui/badge';

const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  scheduled: { label: 'Scheduled', tone: 'blue' },
  publishing: { label: 'Publishing…', tone: 'violet' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  ambiguous: { label: 'Ambiguous — being verified', tone: 'amber' },
  needs_review: { label: 'Needs review', tone: 'amber' },
  canceled: { label: 'Canceled', tone: 'gray' },
  missed: { label: 'Missed', tone: 'red' },
  partial: { label: 'Partly done', tone: 'amber' },
  draft: { label: 'Draft', tone: 'gray' },
  awaiting_approval: { label: 'Awaiting approval', tone: 'amber' },
};

/** How a status is named to people (filters, messages). */
export const statusLabel = (status: string) => STATUS[status]?.label ?? status;

export function StatusBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status, tone: 'gray' as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { InboxItemKind } from '@/lib/inbox/kinds';

export const KIND_NAMES: Record<InboxItemKind, string> = {
  reply: 'Reply',
  comment: 'Comment',
  mention: 'Mention',
  dm: 'Direct message',
};

/** Where an item stands, in words and a colour (never the colour alone). */
export function StatusBadge({ status, source }: { status: string; source: 'semel' | 'platform' | null }) {
  if (status === 'done') return <Badge tone="gray">Done</Badge>;
  if (status === 'answered')
    return <Badge tone="green">{source === 'platform' ? 'Answered on the platform' : 'Answered'}</Badge>;
  return <Badge tone="amber">Unanswered</Badge>;
}

const DELIVERY: Record<string, { label: string; tone: BadgeTone }> = {
  scheduled: { label: 'Publishing soon', tone: 'blue' },
  publishing: { label: 'Publishing…', tone: 'blue' },
  awaiting_approval: { label: 'Awaiting approval', tone: 'violet' },
  ambiguous: { label: 'Being verified', tone: 'amber' },
  needs_review: { label: 'Needs review', tone: 'amber' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  canceled: { label: 'Canceled', tone: 'gray' },
  missed: { label: 'Missed', tone: 'red' },
};

/** An answer's reply as its delivery stands on the platform. */
export function AnswerStatus({ status }: { status: string | null }) {
  const shown = DELIVERY[status ?? ''] ?? { label: 'Saved', tone: 'gray' as const };
  return <Badge tone={shown.tone}>{shown.label}</Badge>;
}

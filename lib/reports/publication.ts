import type { Executor } from '@/db/client';
import {
  getReportWorkspace,
  listReportDeliveries,
  listReportDuplicates,
  listReportEvents,
  type ReportDeliveryRow as DeliveryRow,
  type Stamp,
} from '@/db/queries/reports';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import type { TimeRange } from '@/lib/posts/range';
import { METRIC_NAMES, type MetricName } from '@/lib/analytics/metrics';

/**
 * The proof-of-publication report (docs/architecture.md#reports): every delivery of the posts scheduled in a
 * period, with how it was settled, read from the same rows the app acts on (status history, attempts and
 * reconciliation checks). Agencies send it to clients: it names accounts, times, links and people, never an
 * internal id or a token.
 */

/** How a delivery ended, in the words of the report. */
export type Settlement =
  /** Sent, and the platform said so in answer to the call. */
  | 'direct'
  /** The call's outcome was unknown; a read of the platform found the post (the evidence is given). */
  | 'reconciled'
  /** A person decided (review: confirmed live, published again, canceled). */
  | 'admin'
  | 'missed'
  | 'failed'
  | 'canceled'
  /** Not settled yet: scheduled, publishing, being verified or waiting for review. */
  | 'open';

export const SETTLEMENT_LABEL: Record<Settlement, string> = {
  direct: 'Sent directly',
  reconciled: 'Confirmed by reconciliation',
  admin: 'Decided by an admin',
  missed: 'Missed',
  failed: 'Failed',
  canceled: 'Canceled',
  open: 'Not settled yet',
};

export type ReportRow = {
  text: string;
  /** "Part 2 of 3" for a thread's part, "First comment" for a post's, else null. */
  part: string | null;
  network: string;
  account: string;
  status: string;
  scheduledAt: string;
  /** When the platform got it (the call that created it), for sent deliveries. */
  publishedAt: string | null;
  /** Seconds after the scheduled time (never negative), for sent deliveries. */
  latenessSeconds: number | null;
  link: string | null;
  settlement: Settlement;
  /** In words: the evidence, the person and their reason, or why it failed or was missed. */
  how: string;
  /**
   * How it did (docs/analytics.md): the latest reading of its public metrics, null before the first reading. A
   * metric its network does not give is null.
   */
  performance: ReportPerformance | null;
};

export type ReportPerformance = Record<MetricName, number | null> & { engagement: number | null; readAt: string };

/** The report's performance totals: the sent deliveries read so far, and each metric added up (null: none gives it). */
export type PerformanceTotals = Record<MetricName | 'engagement', number | null> & { read: number };

export type Incident = {
  at: string;
  kind: 'ambiguous' | 'review_decision' | 'duplicates' | 'late_copy';
  account: string;
  text: string;
  detail: string;
};

export type PublicationReport = {
  workspace: { name: string; timeZone: string };
  from: string;
  to: string;
  totals: Record<Settlement, number> & { deliveries: number; sent: number };
  performance: PerformanceTotals;
  rows: ReportRow[];
  incidents: Incident[];
};

const toDate = (v: Stamp) => new Date(v);

const STRATEGY_WORDS: Record<string, string> = {
  // A network whose evidence is its own (YouTube's resumable upload session) says which.
  'youtube-evidence': 'asking YouTube’s upload session (then the channel’s uploads)',
  timeline: 'reading the account’s recent posts',
  'record-key': 'reading the record under its key',
  evidence: 'reading the platform’s evidence',
};

/** Everything the report says about the workspace's deliveries of posts scheduled in `[from, to)`. */
export async function readPublicationReport(
  db: Executor,
  params: { workspaceId: string; range: TimeRange; origin: string },
): Promise<PublicationReport | null> {
  const { workspaceId, range } = params;
  const workspace = await getReportWorkspace(db, { workspaceId });
  if (!workspace) return null;
  const period = { workspaceId, from: range.from, to: range.to };
  const deliveries = await listReportDeliveries(db, period);
  const events = await listReportEvents(db, period);
  const duplicates = await listReportDuplicates(db, period);

  const reportRows = deliveries.map((d) => toRow(d, params.origin));
  const totals = { deliveries: reportRows.length, sent: 0 } as PublicationReport['totals'];
  for (const s of Object.keys(SETTLEMENT_LABEL) as Settlement[]) totals[s] = 0;
  for (const r of reportRows) {
    totals[r.settlement] += 1;
    if (r.status === 'sent') totals.sent += 1;
  }

  const incidents: Incident[] = [
    ...events.map((e): Incident => {
      const base = { at: toDate(e.at).toISOString(), account: e.handle, text: e.text };
      if (e.to_status === 'ambiguous')
        return {
          ...base,
          kind: 'ambiguous',
          detail: `Outcome unknown (${e.reason ?? 'no answer'}); ${
            e.next_status ? `then ${statusWords(e.next_status)}` : 'still being verified'
          }.`,
        };
      return {
        ...base,
        kind: 'review_decision',
        detail: `${e.person ?? 'A former member'}: ${e.reason ?? statusWords(e.to_status)}.`,
      };
    }),
    ...duplicates.map((d): Incident => ({
      at: toDate(d.at).toISOString(),
      kind: d.late ? 'late_copy' : 'duplicates',
      account: d.handle,
      text: d.text,
      detail: d.late
        ? `A late copy appeared after it was published again: ${d.copies} copies on the platform; sent to review.`
        : `${d.copies} copies found on the platform; sent to review (never counted as sent).`,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));

  return {
    workspace: { name: workspace.name, timeZone: workspace.time_zone },
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    totals,
    performance: performanceTotals(reportRows),
    rows: reportRows,
    incidents,
  };
}

function performanceTotals(reportRows: ReportRow[]): PerformanceTotals {
  const read = reportRows.map((r) => r.performance).filter((p): p is ReportPerformance => p !== null);
  const add = (key: MetricName | 'engagement') => {
    const given = read.map((p) => p[key]).filter((v): v is number => v !== null);
    return given.length === 0 ? null : given.reduce((a, b) => a + b, 0);
  };
  return {
    read: read.length,
    ...(Object.fromEntries([...METRIC_NAMES, 'engagement'].map((k) => [k, add(k as MetricName)])) as Record<
      MetricName | 'engagement',
      number | null
    >),
  };
}

function performanceOf(d: DeliveryRow): ReportPerformance | null {
  if (d.read_at === null) return null;
  const value = (v: number | null) => (v === null ? null : Number(v));
  return {
    ...(Object.fromEntries(METRIC_NAMES.map((m) => [m, value(d[m])])) as Record<MetricName, number | null>),
    engagement: value(d.engagement),
    readAt: toDate(d.read_at).toISOString(),
  };
}

function toRow(d: DeliveryRow, origin: string): ReportRow {
  const settlement = settlementOf(d);
  const published = d.status === 'sent' ? (d.sent_call_at ?? d.ambiguous_call_at ?? d.settled_at) : null;
  const publishedAt = published ? toDate(published) : null;
  const scheduledAt = toDate(d.scheduled_at);
  return {
    text: d.text,
    part: d.kind === 'thread' ? `Part ${d.part + 1} of ${d.parts}` : d.part > 0 ? 'First comment' : null,
    network: PROVIDER_LABEL[d.provider] ?? d.provider,
    account: d.handle,
    status: d.status,
    scheduledAt: scheduledAt.toISOString(),
    publishedAt: publishedAt?.toISOString() ?? null,
    latenessSeconds: publishedAt
      ? Math.max(0, Math.round((publishedAt.getTime() - scheduledAt.getTime()) / 1000))
      : null,
    link: linkOf(d.external_url, origin),
    settlement,
    how: howWords(d, settlement),
    performance: performanceOf(d),
  };
}

/** The platform link, absolute (a sandbox account's is relative to this app); nothing when it cannot be one. */
function linkOf(url: string | null, origin: string): string | null {
  if (!url) return null;
  try {
    return new URL(url, origin || undefined).toString();
  } catch {
    return null;
  }
}

function settlementOf(d: DeliveryRow): Settlement {
  if (d.last_actor?.startsWith('user:') && ['sent', 'canceled'].includes(d.status)) return 'admin';
  switch (d.status) {
    case 'sent':
      return d.was_ambiguous && d.found_at ? 'reconciled' : 'direct';
    case 'missed':
      return 'missed';
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'canceled';
    default:
      return 'open';
  }
}

function howWords(d: DeliveryRow, settlement: Settlement): string {
  switch (settlement) {
    case 'direct':
      return 'The platform confirmed the post in answer to the call.';
    case 'reconciled':
      return `The call's outcome was unknown; ${strategyWords(d.found_strategy)}${
        d.found_reads != null ? ` (${d.found_reads} read)` : ''
      } found it on ${toDate(d.found_at!).toISOString()}. It was not sent again.`;
    case 'admin':
      return `${d.last_person ?? 'A former member'} decided: ${d.last_reason ?? statusWords(d.status)}.`;
    case 'missed':
      return `Not published: ${d.last_reason ?? 'past the lateness limit'}.`;
    case 'failed':
      return `Not published: ${d.failure_reason ?? d.last_reason ?? 'the platform refused it'}.`;
    case 'canceled':
      return `Canceled before it went out${d.last_reason ? ` (${d.last_reason})` : ''}.`;
    case 'open':
      return statusWords(d.status);
  }
}

/** Stored strategies are `<network>-<strategy>` (x-timeline, bluesky-record-key, linkedin-evidence). */
function strategyWords(stored: string | null): string {
  const strategy = stored?.replace(/^[a-z]+-/, '') ?? '';
  return STRATEGY_WORDS[stored ?? ''] ?? STRATEGY_WORDS[strategy] ?? 'a read of the platform';
}

function statusWords(status: string): string {
  const words: Record<string, string> = {
    scheduled: 'scheduled',
    publishing: 'publishing',
    sent: 'confirmed sent',
    failed: 'failed',
    ambiguous: 'being verified',
    needs_review: 'waiting for an admin’s review',
    canceled: 'canceled',
    missed: 'missed',
  };
  return words[status] ?? status;
}

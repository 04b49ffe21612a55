import type { Executor } from '@/db/client';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { getDeliveryTimelines } from '@/db/queries/timeline';
import { PROVIDER_LABEL } from '@/lib/providers/labels';
import { serializePost } from './serialize';

export type TimelineEntry = {
  at: string;
  kind: 'event' | 'attempt' | 'check';
  title: string;
  status?: string;
  body?: string;
  evidence?: Record<string, unknown> | null;
};

type Serialized = ReturnType<typeof serializePost>;
export type PostDetail = Omit<Serialized, 'deliveries' | 'parts'> & {
  /** A thread's parts in order (their deliveries are in `deliveries`, by `part`); null for other kinds. */
  parts: Omit<NonNullable<Serialized['parts']>[number], 'deliveries'>[] | null;
  source: string;
  idempotencyKey: string | null;
  deliveries: (Serialized['deliveries'][number] & {
    handle: string;
    /** The network's label (handles repeat across networks). */
    network: string;
    failureReason: string | null;
    /** Scheduled but held: its account's token needs a reconnect. */
    held: boolean;
    nextCheckAt: string | null;
    timeline: TimelineEntry[];
  })[];
};

const CHECK_TITLES: Record<string, string> = {
  waiting: 'waiting — a request may still be running on the platform, nothing read yet',
  not_found_recheck: 'not found yet — reading again after the read-lag delay',
  found: 'found on the platform',
  released: 'not found in two reads — released to publish once more',
  needs_review: 'needs review',
  unreadable: 'the platform could not be read',
  watch_clear: 'late-copy watch — still one copy',
  late_copy: 'late-copy watch — a late copy appeared',
};
const copiesOf = (evidence: Record<string, unknown> | null) =>
  Array.isArray(evidence?.copies) ? evidence.copies.length : 0;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A post with, per delivery, one time-ordered list of what happened (for the timeline UI). */
export async function getPostDetail(
  db: Executor,
  params: { workspaceId: string; postId: string },
): Promise<PostDetail | null> {
  const found = await getPostWithDeliveries(db, params);
  if (!found) return null;
  const { events, attempts, checks } = await getDeliveryTimelines(db, {
    workspaceId: params.workspaceId,
    deliveryIds: found.deliveries.map((d) => d.id),
  });
  const base = serializePost(found.post, found.deliveries, found.parts, found.partMedia);
  return {
    ...base,
    parts: base.parts?.map(({ position, text, media }) => ({ position, text, media })) ?? null,
    source: found.post.source,
    idempotencyKey: found.post.idempotencyKey,
    deliveries: base.deliveries.map((d) => {
      const row = found.deliveries.find((r) => r.id === d.id)!;
      const timeline: TimelineEntry[] = [
        ...events
          .filter((e) => e.deliveryId === d.id)
          .map((e): TimelineEntry => ({
            at: iso(e.at)!,
            kind: 'event',
            status: e.to,
            title: eventTitle(e.to, e.reason, e.detail),
            body: [e.reason, e.actor].filter(Boolean).join(' · '),
          })),
        ...attempts
          .filter((a) => a.deliveryId === d.id)
          .map((a): TimelineEntry => ({
            at: iso(a.at)!,
            kind: 'attempt',
            title: `Platform call (generation ${a.generation})`,
            body: a.outcome
              ? `${a.outcome}${a.httpStatus ? ` · HTTP ${a.httpStatus}` : ''}${a.durationMs != null ? ` · ${a.durationMs} ms` : ''}${a.detail ? ` · ${a.detail}` : ''}`
              : 'started — no answer recorded yet',
          })),
        ...checks
          .filter((c) => c.deliveryId === d.id)
          .map((c): TimelineEntry => ({
            at: iso(c.at)!,
            kind: 'check',
            title: `Reconciliation check: ${CHECK_TITLES[c.decision] ?? c.decision.replaceAll('_', ' ')}`,
            body: [
              c.strategy,
              c.readCount != null ? `${c.readCount} posts read` : null,
              c.windowStart
                ? `window ${iso(c.windowStart)!.slice(11, 19)}–${iso(c.windowEnd)!.slice(11, 19)} UTC`
                : null,
              copiesOf(c.evidence) > 1 ? `${copiesOf(c.evidence)} copies on the platform` : null,
              c.matchedExternalId ? `matched ${c.matchedExternalId}` : null,
            ]
              .filter(Boolean)
              .join(' · '),
            evidence: c.evidence,
          })),
      ].sort((x, y) => x.at.localeCompare(y.at));
      return {
        ...d,
        handle: row.accountHandle,
        network: PROVIDER_LABEL[row.accountProvider],
        failureReason: row.failureReason,
        held: d.status === 'scheduled' && row.accountNeedsReconnect,
        nextCheckAt: d.status === 'ambiguous' ? iso(row.dueAt) : null,
        timeline,
      };
    }),
  };
}

function eventTitle(to: string, reason: string | null, detail: Record<string, unknown> | null): string {
  if (reason === 'created')
    return `Created from the ${detail?.source === 'api' ? 'API' : 'composer'}${detail?.idempotencyKey ? ` (key ${String(detail.idempotencyKey).slice(0, 12)}…)` : ''}`;
  if (to === 'publishing')
    return `Claimed for publishing${detail?.generation ? ` (generation ${detail.generation})` : ''}`;
  if (to === 'ambiguous') return 'Ambiguous — being verified';
  if (to === 'scheduled')
    return reason === 'edited' ? 'Edited' : reason === 'approved' ? 'Approved' : 'Back to scheduled';
  if (to === 'awaiting_approval') return reason === 'edited' ? 'Edited: waiting for approval' : 'Waiting for approval';
  return to.charAt(0).toUpperCase() + to.slice(1).replaceAll('_', ' ');
}

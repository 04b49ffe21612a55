// The chaos run's verdict: each delivery (from our database) against the copies the platform holds (counted on
// the sandbox's own records, by the delivery's unique text), the path each delivery took, and the figures per
// profile/network.

export type DeliveryRow = {
  id: string;
  text: string;
  status: string;
  externalId: string | null;
  failureReason: string | null;
  /** "profile/network", e.g. "plain/threads". */
  profile: string;
  source: string;
  attemptCount: number;
  /** Oldest first. */
  reconciliations: { decision: string; evidence: Record<string, unknown> }[];
  /** "scheduled→publishing→ambiguous…" from the status history. */
  history: string;
};

/** A copy on the platform's records, `id` as the network's API names it (what `externalId` holds when sent). */
/** A copy on the platform, named as its API names it; `parent`: what it replies to, in the same form. */
export type Copy = { id: string; text: string; parent?: string | null };

/** One profile/network's figures. */
export type Tally = {
  deliveries: number;
  sent: number;
  needsReview: number;
  /** failed, missed or canceled. */
  other: number;
  copies: number;
  duplicates: number;
  lost: number;
  unsettled: number;
  sentNotExactlyOne: number;
};

const UNSETTLED = new Set(['scheduled', 'publishing', 'ambiguous']);

export type Verdict = {
  paths: Map<string, number>;
  byStatus: Map<string, number>;
  /** Per "profile/network", in the order first met. */
  byProfile: Map<string, Tally>;
  lines: string[];
  /** Of the duplicates: in needs_review with every copy listed in the latest check's evidence (detected, still a failure). */
  duplicatesListed: string[];
  /**
   * With `--late-share`: deliveries whose late copy (a create beyond the allowance, which no read can foresee) was
   * detected — in needs_review with every copy listed. Accepted, not counted as duplicates; `sent` with two never is.
   */
  lateCopiesDetected: string[];
  failures: {
    duplicates: string[];
    duplicateIntents: string[];
    lost: string[];
    unsettled: string[];
    sentNotExactlyOne: string[];
    sentWrongLink: string[];
    liveButNotSent: string[];
    reviewWithoutEvidence: string[];
    reviewCopiesNotListed: string[];
  };
  copies: number;
};

/** `copiesByText`: every copy ever stored on the chaos accounts, grouped by text. */
export function judge(
  rows: DeliveryRow[],
  copiesByText: Map<string, Copy[]>,
  options: { acceptDetectedLateCopies?: boolean } = {},
): Verdict {
  const verdict: Verdict = {
    paths: new Map(),
    byStatus: new Map(),
    byProfile: new Map(),
    lines: [],
    duplicatesListed: [],
    lateCopiesDetected: [],
    copies: [...copiesByText.values()].reduce((n, c) => n + c.length, 0),
    failures: {
      duplicates: [],
      duplicateIntents: [],
      lost: [],
      unsettled: [],
      sentNotExactlyOne: [],
      sentWrongLink: [],
      liveButNotSent: [],
      reviewWithoutEvidence: [],
      reviewCopiesNotListed: [],
    },
  };
  const f = verdict.failures;
  const perText = new Map<string, number>();
  for (const row of rows) perText.set(row.text, (perText.get(row.text) ?? 0) + 1);

  for (const row of rows) {
    const copies = copiesByText.get(row.text) ?? [];
    const latest = row.reconciliations.at(-1);
    const listed = copies.length > 0 && latest !== undefined && copies.every((c) => mentions(latest.evidence, c.id));
    const path = pathOf(row);
    verdict.paths.set(path, (verdict.paths.get(path) ?? 0) + 1);
    verdict.byStatus.set(row.status, (verdict.byStatus.get(row.status) ?? 0) + 1);

    if ((perText.get(row.text) ?? 0) > 1) f.duplicateIntents.push(row.id);
    if (copies.length > 1 && options.acceptDetectedLateCopies && row.status === 'needs_review' && listed) {
      verdict.lateCopiesDetected.push(row.id);
    } else if (copies.length > 1) {
      f.duplicates.push(row.id);
      if (row.status === 'needs_review' && listed) verdict.duplicatesListed.push(row.id);
    }
    if (UNSETTLED.has(row.status)) f.unsettled.push(row.id);
    if (UNSETTLED.has(row.status) || (row.status === 'sent' && copies.length === 0)) f.lost.push(row.id);
    if (row.status === 'sent' && copies.length !== 1) f.sentNotExactlyOne.push(row.id);
    if (row.status === 'sent' && copies.length === 1 && row.externalId !== copies[0]!.id) f.sentWrongLink.push(row.id);
    if (['failed', 'missed', 'canceled'].includes(row.status) && copies.length > 0) f.liveButNotSent.push(row.id);
    tallyRow(verdict.byProfile, row, copies.length);
    if (row.status === 'needs_review') {
      const evidence = latest && Object.keys(latest.evidence).length > 0;
      if (!evidence && !row.failureReason) f.reviewWithoutEvidence.push(row.id);
      if (copies.length > 1 && !listed) f.reviewCopiesNotListed.push(row.id);
    }
    verdict.lines.push(
      [
        row.id,
        row.profile.padEnd(24),
        row.source.padEnd(4),
        row.status.padEnd(12),
        `copies=${copies.length}`,
        `attempts=${row.attemptCount}`,
        `path="${path}"`,
        `history=${row.history}`,
        copies.length > 0 ? `copy_ids=${copies.map((c) => c.id).join(',')}` : '',
        row.externalId ? `external_id=${row.externalId}` : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  return verdict;
}

function tallyRow(byProfile: Map<string, Tally>, row: DeliveryRow, copies: number) {
  const t = byProfile.get(row.profile) ?? emptyTally();
  byProfile.set(row.profile, t);
  const unsettled = UNSETTLED.has(row.status);
  t.deliveries++;
  t.copies += copies;
  if (row.status === 'sent') t.sent++;
  else if (row.status === 'needs_review') t.needsReview++;
  else if (!unsettled) t.other++;
  if (copies > 1) t.duplicates++;
  if (unsettled) t.unsettled++;
  if (unsettled || (row.status === 'sent' && copies === 0)) t.lost++;
  if (row.status === 'sent' && copies !== 1) t.sentNotExactlyOne++;
}

export const emptyTally = (): Tally => ({
  deliveries: 0,
  sent: 0,
  needsReview: 0,
  other: 0,
  copies: 0,
  duplicates: 0,
  lost: 0,
  unsettled: 0,
  sentNotExactlyOne: 0,
});

/** The figures per network: the sum of its profiles' ("plain/x" and "x-nodedupe/x" → "x"). */
export function tallyByNetwork(byProfile: Map<string, Tally>): Map<string, Tally> {
  const byNetwork = new Map<string, Tally>();
  for (const [profile, tally] of byProfile) {
    const network = profile.slice(profile.lastIndexOf('/') + 1);
    const sum = byNetwork.get(network) ?? emptyTally();
    for (const key of Object.keys(sum) as (keyof Tally)[]) sum[key] += tally[key];
    byNetwork.set(network, sum);
  }
  return byNetwork;
}

/** How the delivery got where it is, in words. */
export function pathOf(row: Pick<DeliveryRow, 'status' | 'failureReason' | 'reconciliations'>): string {
  const decisions = new Set(row.reconciliations.map((r) => r.decision));
  if (row.status === 'sent') {
    if (row.reconciliations.length === 0) return 'sent directly';
    if (decisions.has('released')) return 'released and republished';
    if (decisions.has('found')) return 'found by reconciliation';
    return 'sent after reconciliation';
  }
  if (row.status === 'needs_review' && decisions.has('late_copy')) return 'needs_review: a late copy appeared (watch)';
  if (row.status === 'needs_review') return `needs_review: ${generalise(row.failureReason ?? 'no reason')}`;
  return row.status;
}

/** Reasons carry ids, counts of seconds and times: strip them so that paths group. */
function generalise(reason: string): string {
  return reason
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>')
    .replace(/https?:\/\/\S+/g, '<link>')
    .slice(0, 100);
}

function mentions(evidence: Record<string, unknown>, id: string): boolean {
  return new RegExp(`(^|[^0-9A-Za-z])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^0-9A-Za-z]|$)`).test(
    JSON.stringify(evidence),
  );
}

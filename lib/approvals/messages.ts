import type { DecideResult, DecisionView } from './decide';

const VERB = { approved: 'approved', changes_requested: 'asked for changes' } as const;

/** "Approved by Ada at 2026-12-01 10:00 UTC" — how the one decision is named to whoever comes second. */
export function decisionSentence(d: DecisionView): string {
  const at = d.decidedAt.replace('T', ' ').slice(0, 16) + ' UTC';
  return d.decision === 'approved'
    ? `Already approved by ${d.deciderName} at ${at}.`
    : `${d.deciderName} already ${VERB[d.decision]} at ${at}.`;
}

/** A decision's result as one message for people (the client's page, the Approvals list, the post page). */
export function decisionMessage(result: DecideResult): { ok: boolean; message: string } {
  switch (result.kind) {
    case 'decided':
      return result.decision.decision === 'approved'
        ? {
            ok: true,
            message:
              result.missed > 0
                ? 'Approved, but its time is past the lateness limit: it was marked missed, not published late.'
                : 'Approved: it will be published at its time.',
          }
        : { ok: true, message: 'Changes requested: the author has been told.' };
    case 'already_decided':
      return { ok: false, message: decisionSentence(result.decision) };
    case 'stale':
      return { ok: false, message: 'This post was edited since you opened it: reload to see the new version.' };
    case 'not_awaiting':
      return { ok: false, message: 'This post is not waiting for approval.' };
    case 'invalid':
      return { ok: false, message: Object.values(result.errors).flat().join(' ') };
    case 'not_found':
      return { ok: false, message: 'This post no longer exists.' };
  }
}

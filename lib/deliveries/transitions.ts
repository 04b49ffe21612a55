import type { DeliveryStatus } from '@/db/schema';

/**
 * The delivery state machine (docs/architecture.md#delivery-states) — the one place the rules live. The database enforces it with
 * a trigger whose function is generated from this table (transitionTriggerFunctionSql; installed by
 * migrations 0003, 0005, 0010, 0011, 0013, 0020 and 0022): a test checks the live function's source equals it, and every pair both ways.
 * To change a rule: edit the table, add a migration containing transitionTriggerFunctionSql().
 */
export const ALLOWED_TRANSITIONS: Record<DeliveryStatus, readonly DeliveryStatus[]> = {
  // needs_review: held because its account was disconnected (the token is gone; an admin decides).
  // failed: a thread part whose earlier part failed (nothing to reply to; db/queries/deliveries/thread.ts).
  // awaiting_approval: an edit to an approved post sends it back for approval.
  scheduled: ['publishing', 'canceled', 'missed', 'needs_review', 'failed', 'awaiting_approval'],
  publishing: ['sent', 'failed', 'scheduled', 'ambiguous'],
  ambiguous: ['sent', 'scheduled', 'needs_review'],
  needs_review: ['sent', 'scheduled', 'canceled'],
  // needs_review: the late-copy watch found a second copy after a republish (lib/reconcile/watch.ts).
  sent: ['needs_review'],
  // needs_review: after a release (a proof of absence), a copy appeared although Semel had stopped trying
  // (lib/reconcile/watch.ts): the post is live, an admin decides. Nothing else leaves these.
  failed: ['needs_review'],
  canceled: ['needs_review'],
  missed: ['needs_review'],
  // A draft is never claimed; a keyed edit schedules it (or it is discarded). Nothing returns to draft.
  draft: ['scheduled', 'canceled', 'awaiting_approval'],
  // Never claimed; approved → scheduled (or missed when decided past the lateness limit), or discarded.
  awaiting_approval: ['scheduled', 'canceled', 'missed'],
};

export function canTransition(from: DeliveryStatus, to: DeliveryStatus): boolean {
  return from === to || ALLOWED_TRANSITIONS[from].includes(to);
}

/** SQL for the trigger body's condition, generated from the table above. */
function transitionCaseSql(): string {
  return Object.entries(ALLOWED_TRANSITIONS)
    .filter(([, to]) => to.length > 0)
    .map(([from, to]) => `(old.status = '${from}' and new.status in (${to.map((t) => `'${t}'`).join(', ')}))`)
    .join('\n      or ');
}

/**
 * The body of the trigger function deliveries_check_status_transition(), generated from the table. A test
 * compares it with the live function (pg_get_functiondef), so a change to the table without a migration
 * that installs `transitionTriggerFunctionSql()` fails.
 */
export function transitionFunctionBody(): string {
  return `
BEGIN
  IF new.status = old.status THEN
    RETURN new;
  END IF;
  IF NOT (
      ${transitionCaseSql()}
  ) THEN
    RAISE EXCEPTION 'delivery % cannot move from % to %', old.id, old.status, new.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'deliveries_status_transition_ck';
  END IF;
  RETURN new;
END;
`;
}

/** The statement a migration runs to install the table's current rules. */
export function transitionTriggerFunctionSql(): string {
  return `CREATE OR REPLACE FUNCTION deliveries_check_status_transition() RETURNS trigger AS $$${transitionFunctionBody()}$$ LANGUAGE plpgsql;`;
}

import type { OutboxClaim } from '@/db/queries/leased-outbox';
import { nextRetryAt } from './backoff';

/** A claimed row: the claim's generation fences every write after it; `attempts` counts the recorded ones. */
export type LeasedRow = { generation: number; attempts: number };

/**
 * What one send came to: an outcome for the loop to record (`final`: not worth a retry), or a send that wrote its
 * own result under the generation already (`recorded` false: it was fenced off).
 */
export type SendResult<Outcome> =
  { ok: true; outcome: Outcome } | { ok: false; outcome: Outcome; final?: boolean } | { recorded: boolean };

/** One outbox's pieces (webhooks, notifications): its queries in db/queries, bound to a database, and its send. */
export type LeasedOutbox<Row extends LeasedRow, Outcome> = {
  claim: (params: OutboxClaim) => Promise<Row[]>;
  idOf: (row: Row) => string;
  /** The backoff's retry window (a day) counts from here: the event or the send's creation. */
  retryWindowFrom: (row: Row) => Date;
  leaseHeld: (params: { id: string; generation: number; now: Date }) => Promise<boolean>;
  /** One external call, never retried inside; a failure is an outcome, not a throw. */
  send: (row: Row) => Promise<SendResult<Outcome>>;
  /** Writes the outcome only under the row's generation; false when a newer claim fenced it off. */
  record: (params: { row: Row; ok: boolean; outcome: Outcome; nextAttemptAt: Date | null }) => Promise<boolean>;
  logFailure: (row: Row, outcome: Outcome) => void;
};

export type OutboxRun = {
  /** The sender's clock for claims, leases and retries (tests drive it); the budget runs on the real one. */
  now: () => Date;
  batchSize: number;
  leaseMs: number;
  budgetMs: number;
  /** Only these rows, one batch (the "send test" and "redeliver" buttons send theirs at once). */
  ids?: string[];
};

export type OutboxPassSummary = {
  claimed: number;
  succeeded: number;
  retrying: number;
  givenUp: number;
  fenced: number;
};

type AttemptResult = 'succeeded' | 'retrying' | 'givenUp' | 'fenced';

/**
 * One sender pass, safe with any number of concurrent senders: claim due rows (SKIP LOCKED, a lease, a new
 * generation) batch after batch within the budget, send each once, record the outcome fenced by that generation.
 * A sender that dies mid-call leaves its lease to run out; the row is then claimed again (at least once).
 */
export async function runLeasedOutbox<Row extends LeasedRow, Outcome>(
  outbox: LeasedOutbox<Row, Outcome>,
  run: OutboxRun,
): Promise<OutboxPassSummary> {
  const summary: OutboxPassSummary = { claimed: 0, succeeded: 0, retrying: 0, givenUp: 0, fenced: 0 };
  const started = Date.now();
  while (Date.now() - started < run.budgetMs) {
    const batch = await outbox.claim({ now: run.now(), limit: run.batchSize, leaseMs: run.leaseMs, ids: run.ids });
    if (batch.length === 0) break;
    summary.claimed += batch.length;
    const results = await Promise.all(batch.map((row) => attemptClaimed(outbox, row, run.now)));
    for (const result of results) summary[result] += 1;
    if (run.ids) break;
  }
  return summary;
}

/**
 * One claimed row: the lease re-checked right before the call (a sender whose lease lapsed, or was taken over by
 * another, sends nothing), the send, then the outcome recorded under the claim's generation with the backoff.
 */
export async function attemptClaimed<Row extends LeasedRow, Outcome>(
  outbox: LeasedOutbox<Row, Outcome>,
  row: Row,
  now: () => Date,
): Promise<AttemptResult> {
  if (!(await outbox.leaseHeld({ id: outbox.idOf(row), generation: row.generation, now: now() }))) return 'fenced';
  const sent = await outbox.send(row);
  if ('recorded' in sent) return sent.recorded ? 'succeeded' : 'fenced';
  const retryAt = sent.ok || sent.final ? null : nextRetryAt(row.attempts + 1, now(), outbox.retryWindowFrom(row));
  const recorded = await outbox.record({ row, ok: sent.ok, outcome: sent.outcome, nextAttemptAt: retryAt });
  if (!sent.ok) outbox.logFailure(row, sent.outcome);
  if (!recorded) return 'fenced';
  return sent.ok ? 'succeeded' : retryAt ? 'retrying' : 'givenUp';
}

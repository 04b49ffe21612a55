import { sql } from 'drizzle-orm';
import type { DeliveryStatus } from '@/db/schema';
import type { Platform } from '@/sandbox/store/types';
import { newPostId } from '@/sandbox/store/post-ids';
import type { Executor } from '@/db/client';
import { getSandboxAccountByUserId, insertSandboxPost } from '@/sandbox/db/queries/store';
import { jsonb } from '@/db/queries/sql-params';

// The history of a seeded delivery, written as the publisher and the reconciler write it (db/queries/deliveries:
// claim, startAttempts, recordOutcomes, recordReconcileDecision) but at the times a demo week needs. Every status
// change is an UPDATE, so the transition trigger (lib/deliveries/transitions.ts) checks each step.

export type SeededDelivery = { id: string; workspaceId: string };

/** One status change and its history row, at `at`. */
export async function moveDelivery(
  db: Executor,
  d: SeededDelivery,
  step: {
    from: DeliveryStatus;
    to: DeliveryStatus;
    at: Date;
    actor: string;
    reason: string;
    detail?: Record<string, unknown>;
    set?: { externalId?: string; url?: string; dueAt?: Date; settled?: boolean; claimed?: boolean };
  },
) {
  const s = step.set ?? {};
  await db.execute(sql`
    update deliveries set status = ${step.to}::delivery_status,
      attempt_count = attempt_count + ${s.claimed ? 1 : 0},
      external_id = coalesce(${s.externalId ?? null}, external_id),
      external_url = coalesce(${s.url ?? null}, external_url),
      due_at = coalesce(${s.dueAt?.toISOString() ?? null}::timestamptz, due_at),
      settled_at = case when ${s.settled ?? false} then ${step.at.toISOString()}::timestamptz else settled_at end,
      updated_at = ${step.at.toISOString()}::timestamptz
    where id = ${d.id} and status = ${step.from}::delivery_status`);
  await db.execute(sql`
    insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail, created_at)
    values (${d.workspaceId}, ${d.id}, ${step.from}::delivery_status, ${step.to}::delivery_status, ${step.actor},
      ${step.reason}, ${step.detail ? jsonb(step.detail) : null}, ${step.at.toISOString()}::timestamptz)`);
}

/**
 * An admin's review decision (written by resolveReviewItem at seed time) dated when the admin made it: its history
 * row, its audit entry, and the delivery's settled time.
 */
export async function backdateDecision(db: Executor, d: SeededDelivery, at: Date) {
  const when = at.toISOString();
  await db.execute(sql`
    update delivery_events set created_at = ${when}::timestamptz
    where delivery_id = ${d.id} and actor like 'user:%' and from_status is not null`);
  await db.execute(sql`
    update audit_log set created_at = ${when}::timestamptz where target_type = 'delivery' and target_id = ${d.id}`);
  await db.execute(sql`
    update deliveries set settled_at = ${when}::timestamptz, updated_at = ${when}::timestamptz, due_at = ${when}::timestamptz
    where id = ${d.id}`);
}

/** The first history row (`created`) at the time the post was made, not at seed time. */
export async function backdateCreation(db: Executor, deliveryIds: string[], at: Date) {
  await db.execute(sql`
    update delivery_events set created_at = ${at.toISOString()}::timestamptz
    where delivery_id = any(${`{${deliveryIds.join(',')}}`}::uuid[]) and from_status is null`);
  await db.execute(sql`
    update deliveries set created_at = ${at.toISOString()}::timestamptz, updated_at = ${at.toISOString()}::timestamptz
    where id = any(${`{${deliveryIds.join(',')}}`}::uuid[])`);
}

export type AttemptResult = {
  outcome: 'sent' | 'ambiguous';
  durationMs: number;
  httpStatus: number | null;
  rule: string;
  reason: string;
  externalId?: string;
  url?: string;
  /** Ambiguous: when the first reconciliation check is due. */
  nextCheckAt?: Date;
};

/**
 * Claim (generation 1) → attempt started → outcome, as one publisher pass. Sent releases the claim; ambiguous
 * keeps it held with its lease ended, so only the reconciler can take it.
 */
export async function publishOnce(db: Executor, d: SeededDelivery, at: Date, workerId: string, result: AttemptResult) {
  const actor = `worker:${workerId}`;
  const finishedAt = new Date(at.getTime() + result.durationMs);
  await moveDelivery(db, d, {
    from: 'scheduled',
    to: 'publishing',
    at,
    actor,
    reason: 'claimed',
    detail: { generation: 1 },
    set: { claimed: true },
  });
  await db.execute(sql`
    insert into claims (delivery_id, generation, worker_id, lease_expires_at, claimed_at, released_at)
    values (${d.id}, 1, ${workerId}, ${finishedAt.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz,
      ${result.outcome === 'sent' ? finishedAt.toISOString() : null}::timestamptz)`);
  await db.execute(sql`
    insert into attempts (delivery_id, generation, account_id, started_at, finished_at, outcome, http_status, detail, duration_ms)
    values (${d.id}, 1, (select account_id from deliveries where id = ${d.id}), ${at.toISOString()}::timestamptz, ${finishedAt.toISOString()}::timestamptz,
      ${result.outcome}::attempt_outcome, ${result.httpStatus}, ${result.reason}, ${result.durationMs})`);
  await moveDelivery(db, d, {
    from: 'publishing',
    to: result.outcome,
    at: finishedAt,
    actor,
    reason: result.reason,
    detail: {
      rule: result.rule,
      generation: 1,
      outcome: result.outcome,
      httpStatus: result.httpStatus,
      durationMs: result.durationMs,
      externalId: result.externalId ?? null,
    },
    set: {
      externalId: result.externalId,
      url: result.url,
      dueAt: result.nextCheckAt,
      settled: result.outcome === 'sent',
    },
  });
}

/** One reconciliation check: the claim's generation bumped (as claimAmbiguousDeliveries does), the check stored. */
export async function recordCheck(
  db: Executor,
  d: SeededDelivery,
  check: {
    at: Date;
    workerId: string;
    strategy: string;
    windowStart: Date;
    readCount: number;
    decision: 'not_found_recheck' | 'needs_review';
    reason: string;
    evidence: Record<string, unknown>;
    nextCheckAt?: Date;
  },
) {
  const final = check.decision === 'needs_review';
  await db.execute(sql`
    update claims set generation = generation + 1, worker_id = ${check.workerId}, claimed_at = ${check.at.toISOString()}::timestamptz,
      lease_expires_at = ${check.at.toISOString()}::timestamptz,
      released_at = ${final ? check.at.toISOString() : null}::timestamptz
    where delivery_id = ${d.id}`);
  await db.execute(sql`
    insert into reconciliations (delivery_id, strategy, window_start, window_end, read_count, decision, evidence, next_check_at, checked_at)
    values (${d.id}, ${check.strategy}, ${check.windowStart.toISOString()}::timestamptz, ${check.at.toISOString()}::timestamptz,
      ${check.readCount}, ${check.decision}::reconcile_decision, ${jsonb(check.evidence)},
      ${check.nextCheckAt?.toISOString() ?? null}::timestamptz, ${check.at.toISOString()}::timestamptz)`);
  if (!final) {
    await db.execute(
      sql`update deliveries set due_at = ${check.nextCheckAt!.toISOString()}::timestamptz where id = ${d.id}`,
    );
    return;
  }
  await moveDelivery(db, d, {
    from: 'ambiguous',
    to: 'needs_review',
    at: check.at,
    actor: `reconciler:${check.workerId}`,
    reason: check.reason,
    detail: { strategy: check.strategy, decision: check.decision, externalId: null },
    set: { dueAt: check.at },
  });
  await db.execute(sql`
    insert into notifications (workspace_id, delivery_id, kind, message, created_at)
    values (${d.workspaceId}, ${d.id}, 'needs_review', ${`A delivery needs review: ${check.reason}`}, ${check.at.toISOString()}::timestamptz)
    on conflict (delivery_id, kind) do nothing`);
}

export type SandboxCopy = { id: string; createdAt: Date };

/** A post on the sandbox network's own records (what the platform stored), as its API would have created it. */
export async function storeSandboxCopy(
  db: Executor,
  params: {
    platform: Platform;
    platformUserId: string;
    text: string;
    createdAt: Date;
    kind?: 'post' | 'reply';
    inReplyToId?: string | null;
    idempotencyKey?: string | null;
    /** Bluesky: the record and its key, as putRecord stores them. */
    recordKey?: string | null;
    record?: Record<string, unknown> | null;
  },
): Promise<SandboxCopy> {
  const account = await getSandboxAccountByUserId(db, params);
  if (!account) throw new Error(`seed: no sandbox account for ${params.platform} ${params.platformUserId}`);
  const row = await insertSandboxPost(db, {
    id: BigInt(newPostId(params.createdAt)),
    accountId: account.id,
    kind: params.kind ?? 'post',
    text: params.text,
    inReplyToId: params.inReplyToId ?? null,
    idempotencyKey: params.idempotencyKey ?? null,
    recordKey: params.recordKey ?? null,
    record: params.record ?? null,
    createdAt: params.createdAt,
  });
  if (!row) throw new Error('seed: sandbox post id collision');
  return { id: String(row.id), createdAt: row.createdAt };
}

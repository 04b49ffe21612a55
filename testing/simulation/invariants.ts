import type { Database } from '@/db/client';
import { lastCheckCopyIds, listSimDeliveries, listSimEvents } from './database';
import { canTransition } from '@/lib/deliveries/transitions';
import type { DeliveryStatus } from '@/db/schema';
import type { SimulationResult } from './simulate';

const SETTLED = new Set(['sent', 'failed', 'canceled', 'missed', 'needs_review']);
const WITHOUT_COPY = new Set(['failed', 'canceled', 'missed']);

/**
 * The invariants of docs/architecture.md#invariants after one run, each violation as a sentence. Copies are counted on the
 * platform's own records, never through our database.
 */
export async function checkInvariants(db: Database, result: SimulationResult): Promise<string[]> {
  const violations: string[] = [];
  const rows = new Map((await listSimDeliveries(db)).map((r) => [r.id, r]));
  const events = await listSimEvents(db);

  for (const d of result.deliveries) {
    const row = rows.get(d.id)!;
    const copies = result.platformPosts.filter((p) => p.accountId === d.sandboxAccountId && d.texts.has(p.text));
    const ids = copies.map((c) => c.id).join(', ');
    // I1: at most one copy. Even a detected duplicate (needs_review listing the copies) counts where every timing
    // assumption holds: a second copy then means a guard is missing. A platform that finishes a write past the
    // allowance can defeat a proof of absence; there the second copy must be caught: never "sent", in review, listed.
    if (copies.length > 1) {
      const listed = new Set(d.lateCreates && row.status === 'needs_review' ? await lastCheckCopyIds(db, d.id) : []);
      if (!copies.every((c) => listed.has(c.id)))
        violations.push(`I1: delivery ${d.id} (${row.status}) has ${copies.length} copies on the platform: ${ids}`);
    }
    if (row.status === 'sent' && (copies.length !== 1 || copies[0]!.id !== row.externalId)) {
      violations.push(
        `I1: delivery ${d.id} is sent as ${row.externalId} but the platform holds ${copies.length} copies (${ids})`,
      );
    }
    if (WITHOUT_COPY.has(row.status) && copies.length > 0)
      violations.push(`I1: delivery ${d.id} is ${row.status} but the platform holds ${ids}`);

    // I2: settled, or still in someone's hands (a live lease, a reconciliation still due).
    const underLease =
      row.status === 'publishing' && row.leaseExpiresAt !== null && row.leaseExpiresAt > row.now && !row.claimReleased;
    const underReconciliation = row.status === 'ambiguous' && row.dueAt > row.now;
    if (!SETTLED.has(row.status) && !underLease && !underReconciliation) {
      violations.push(
        `I2: delivery ${d.id} ended ${row.status} (due ${row.dueAt.toISOString()}, lease ${row.leaseExpiresAt?.toISOString() ?? 'none'})`,
      );
    }
    if (row.status === 'failed' && !row.failureReason) violations.push(`I2: delivery ${d.id} failed without a reason`);

    // I5: the history is a chain of allowed transitions that ends in the current status.
    const history = events.filter((e) => e.deliveryId === d.id);
    let status: string | null = null;
    for (const e of history) {
      if (e.fromStatus !== status)
        violations.push(`I5: delivery ${d.id} event ${e.id} moves from ${e.fromStatus} but the status was ${status}`);
      if (e.fromStatus !== null && !canTransition(e.fromStatus as DeliveryStatus, e.toStatus as DeliveryStatus)) {
        violations.push(
          `I5: delivery ${d.id} event ${e.id} ${e.fromStatus} → ${e.toStatus} is not an allowed transition`,
        );
      }
      status = e.toStatus;
    }
    if (status !== row.status)
      violations.push(`I5: delivery ${d.id} is ${row.status} but its history ends at ${status}`);

    // I4: a row written under a claim names the generation current when it was written.
    for (const e of history) {
      if (e.generation !== null && e.generation !== e.claimGeneration) {
        violations.push(
          `I4: delivery ${d.id} event ${e.id} (${e.fromStatus} → ${e.toStatus} by ${e.actor}) carries generation ${e.generation}, the claim was at ${e.claimGeneration}`,
        );
      }
    }
  }

  for (const a of result.sim.actors) {
    if (a.error) violations.push(`actor ${a.name} threw: ${(a.error as Error)?.stack ?? String(a.error)}`);
  }
  for (const name of result.stuck)
    violations.push(`actor ${name} never finished (waiting on something no step releases)`);
  return violations;
}

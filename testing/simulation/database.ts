import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';

// Database support for the interleaving simulation (testing/simulation), on the test file's own database.

/**
 * I4 audit: for every history row, the claim's generation at the moment the row was written (an AFTER
 * trigger sees the whole statement's changes). A row that names a generation must name that one.
 */
export async function installFenceAudit(db: Executor) {
  await db.execute(sql`
    create table if not exists sim_event_fences (event_id bigint primary key, claim_generation int, claim_released boolean)`);
  await db.execute(sql`
    create or replace function sim_record_fence() returns trigger as $$
    begin
      insert into sim_event_fences (event_id, claim_generation, claim_released)
      select new.id, c.generation, c.released_at is not null from (select 1) one
      left join claims c on c.delivery_id = new.delivery_id;
      return new;
    end;
    $$ language plpgsql`);
  await db.execute(sql`drop trigger if exists sim_record_fence_trg on delivery_events`);
  await db.execute(
    sql`create trigger sim_record_fence_trg after insert on delivery_events for each row execute function sim_record_fence()`,
  );
}

/** A clean slate for one run (deliveries first: they hold their account with `restrict`). DELETE beats TRUNCATE on a few rows. */
export async function resetSimulationData(db: Executor) {
  await db.execute(sql`delete from deliveries`);
  await db.execute(sql`delete from workspaces`);
  await db.execute(sql`delete from sim_event_fences`);
}

const shiftStatements = new WeakMap<object, string[]>();

/**
 * Time passes by `ms`: every timestamp in the database moves back by it (leases lapse, due times come,
 * attempts and reads grow old), which is the same as the clock moving forward, without waiting.
 */
export async function shiftTimestampsBack(db: Executor, ms: number) {
  let updates = shiftStatements.get(db);
  if (!updates) {
    const columns = await db.execute<{ table: string; sets: string }>(sql`
      select c.table_name as "table", string_agg(format('%I = %I - (:shift)::interval', c.column_name, c.column_name), ', ') as sets
      from information_schema.columns c join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
      where c.table_schema = 'public' and c.data_type = 'timestamp with time zone' and t.table_type = 'BASE TABLE'
      group by c.table_name order by c.table_name`);
    updates = [...columns].map((c) => `update "${c.table}" set ${c.sets}`);
    shiftStatements.set(db, updates);
  }
  // One statement: each table's update as a data-modifying CTE.
  const interval = `'${Math.round(ms)} milliseconds'`;
  const ctes = updates.map((u, i) => `s${i} as (${u.replaceAll('(:shift)', interval)} returning 1)`).join(',\n');
  await db.execute(sql.raw(`with ${ctes} select 1`));
  // The time a delivery kept for its container (Threads' containerCreatedAt, in provider_state) moves with the rest:
  // the post its publish made is looked for from then on, and the platform's posts move back too (platform.ts).
  await db.execute(sql`
    update deliveries set provider_state = jsonb_set(provider_state, '{containerCreatedAt}',
      to_jsonb(to_char(((provider_state->>'containerCreatedAt')::timestamptz - make_interval(secs => ${ms / 1000}))
        at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
    where provider_state ? 'containerCreatedAt'`);
}

export type SimDeliveryRow = {
  id: string;
  postId: string;
  accountId: string;
  status: string;
  externalId: string | null;
  failureReason: string | null;
  dueAt: Date;
  leaseExpiresAt: Date | null;
  claimReleased: boolean | null;
  generation: number | null;
  now: Date;
};

export async function listSimDeliveries(db: Executor): Promise<SimDeliveryRow[]> {
  const rows = await db.execute(sql`
    select d.id, d.post_id as "postId", d.account_id as "accountId", d.status, d.external_id as "externalId", d.failure_reason as "failureReason",
      d.due_at as "dueAt", c.lease_expires_at as "leaseExpiresAt", c.released_at is not null as "claimReleased", c.generation,
      now() as "now"
    from deliveries d left join claims c on c.delivery_id = d.id order by d.id`);
  return [...rows].map((r) => {
    const row = r as Record<string, unknown>;
    return {
      ...row,
      dueAt: new Date(row.dueAt as string),
      now: new Date(row.now as string),
      leaseExpiresAt: row.leaseExpiresAt ? new Date(row.leaseExpiresAt as string) : null,
    } as SimDeliveryRow;
  });
}

export type SimEventRow = {
  id: number;
  deliveryId: string;
  fromStatus: string | null;
  toStatus: string;
  actor: string;
  reason: string | null;
  generation: number | null;
  claimGeneration: number | null;
};

/** Every history row, oldest first, with the claim generation current when it was written. */
export async function listSimEvents(db: Executor): Promise<SimEventRow[]> {
  const rows = await db.execute(sql`
    select e.id::int as id, e.delivery_id as "deliveryId", e.from_status as "fromStatus", e.to_status as "toStatus", e.actor, e.reason,
      (e.detail->>'generation')::int as generation, f.claim_generation as "claimGeneration"
    from delivery_events e left join sim_event_fences f on f.event_id = e.id order by e.id`);
  return [...rows] as SimEventRow[];
}

/** Late-copy watches still open (a republished delivery not yet checked at every step). */
export async function countOpenWatches(db: Executor): Promise<number> {
  const [row] = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from late_copy_watches where ended_at is null`,
  );
  return row?.n ?? 0;
}

/** The copies the delivery's latest stored check listed (its evidence's `copies`). */
export async function lastCheckCopyIds(db: Executor, deliveryId: string): Promise<string[]> {
  const [row] = await db.execute<{ ids: string[] | null }>(sql`
    select array(select c->>'id' from jsonb_array_elements(coalesce(r.evidence->'copies', '[]'::jsonb)) c) as ids
    from reconciliations r where r.delivery_id = ${deliveryId} order by r.checked_at desc limit 1`);
  return row?.ids ?? [];
}

import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from './rows';
import { interval, jsonb } from '../sql-params';
import { deliveryTextSql } from '../post-variants';
import type { ClaimedDelivery } from './claim';
import { deliveryInReplyTo, deliveryKind, hasNextPart } from './thread';
import type { ProviderName, ProviderState } from '@/db/schema';

export type StartedAttempt = {
  attemptId: string;
  deliveryId: string;
  generation: number;
  workspaceId: string;
  postId: string;
  /** The thread part this attempt publishes (0 for every other kind). */
  part: number;
  /** Another part of the same thread follows on this account: sending this one makes it claimable. */
  hasNextPart: boolean;
  /** This part has images attached (post_media): only then are they read before the call. */
  hasMedia: boolean;
  /** The part's own text; a thread part after the first is a reply to the part before it. */
  text: string;
  kind: 'post' | 'reply' | 'dm';
  inReplyTo: string | null;
  recipient: string | null;
  accountId: string;
  provider: ProviderName;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  /** The post's scheduled time as Postgres prints it (metrics: due-to-sent lateness). */
  scheduledAt: string;
  /** What earlier attempts kept for the provider (deliveries.provider_state). */
  providerState: ProviderState;
  /** The format chosen for this account (deliveries.format), or null for the network's default. */
  format: string | null;
  /** The choices made for this account (deliveries.options), or null where its network asks for none. */
  options: Record<string, unknown> | null;
  /** When the first attempt of this delivery started (this one, on a first attempt): Bluesky's frozen createdAt. */
  firstAttemptAt: Date;
};

/**
 * Commits an attempt row `started` for each claim still held at its generation with at least
 * `minLeaseMs` left (the lease re-check before the platform call). Returns what to publish.
 */
export async function startAttempts(
  db: Executor,
  params: { claims: Pick<ClaimedDelivery, 'deliveryId' | 'generation'>[]; minLeaseMs: number },
) {
  if (params.claims.length === 0) return [];
  const result = await executePrepared(
    db,
    sql`
    with input as (
      select * from jsonb_to_recordset(${jsonb(params.claims.map((c) => ({ delivery_id: c.deliveryId, generation: c.generation })))}) as t(delivery_id uuid, generation int)
    ), held as (
      select i.delivery_id, i.generation, d.account_id from input i
      join claims c on c.delivery_id = i.delivery_id and c.generation = i.generation
      join deliveries d on d.id = i.delivery_id
      -- clock_timestamp(), not now(): the time when the row is checked, after any wait for a lock, not when the
      -- statement began (a statement that waited a minute behind a migration must not trust a lease by its start).
      where c.released_at is null and c.lease_expires_at > clock_timestamp() + ${interval(params.minLeaseMs)} and d.status = 'publishing'
    ), started as (
      insert into attempts (delivery_id, generation, account_id) select delivery_id, generation, account_id from held
      on conflict (delivery_id, generation) do nothing
      returning id, delivery_id, generation
    )
    select s.id as "attemptId", s.delivery_id as "deliveryId", s.generation, d.workspace_id as "workspaceId", p.id as "postId",
      d.part, ${hasNextPart} as "hasNextPart",
      -- One probe of post_media's primary key here saves a statement per chunk when nothing has images.
      exists (select 1 from post_media pm where pm.post_id = p.id and pm.part = d.part) as "hasMedia",
      -- A thread part's parent is read here, when its attempt starts: the previous part is sent (the claim required it).
      ${deliveryTextSql} as text, ${deliveryKind} as kind, ${deliveryInReplyTo} as "inReplyTo", p.recipient,
      a.id as "accountId", a.provider, a.base_url as "baseUrl",
      a.platform_user_id as "platformUserId", a.credentials_encrypted as "credentialsEncrypted", p.scheduled_at as "scheduledAt",
      d.provider_state as "providerState", d.format, d.options,
      -- This attempt's own row is not visible to the statement that inserts it: on a first claim, now() is its start
      -- (and the earlier attempts are read only when there can be some).
      case when d.attempt_count = 1 then now()
        else coalesce((select min(t.started_at) from attempts t where t.delivery_id = s.delivery_id), now()) end as "firstAttemptAt"
    from started s
    join deliveries d on d.id = s.delivery_id
    join posts p on p.id = d.post_id
    join social_accounts a on a.id = d.account_id`,
  );
  return rows<Omit<StartedAttempt, 'firstAttemptAt'> & { firstAttemptAt: string }>(result).map((r) => ({
    ...r,
    firstAttemptAt: new Date(r.firstAttemptAt),
  }));
}

/**
 * Keeps provider state on a delivery (a Threads container id) while the claim is still held at this
 * generation; false when it was lost (the caller must not go on to publish).
 */
export async function saveProviderState(
  db: Executor,
  params: { deliveryId: string; generation: number; state: ProviderState },
): Promise<boolean> {
  const result = await executePrepared(
    db,
    sql`
    with saved as (
      update deliveries d set provider_state = ${jsonb(params.state)}
      from claims c
      where d.id = ${params.deliveryId} and c.delivery_id = d.id and c.generation = ${params.generation}
        and c.released_at is null and c.lease_expires_at > now() and d.status = 'publishing'
      returning d.id, d.account_id
    ), matched as (
      -- A platform event that came before the delivery knew the id it names (TikTok's publish_id) is its now.
      update platform_events e set delivery_id = s.id, outcome = 'kept'
      from saved s
      where e.outcome = 'unmatched' and e.account_id = s.account_id and e.delivery_id is null
        and e.object_id in (select value from jsonb_each_text(${jsonb(params.state)}))
      returning e.id
    )
    select id from saved`,
  );
  return [...result].length === 1;
}

import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { partCount } from './deliveries/thread';
import { uuidAny } from './sql-params';
import type { ProviderName } from '@/db/schema';
import { deliveryTextSql } from './post-variants';

export type ReviewItem = {
  deliveryId: string;
  postId: string;
  workspaceId: string;
  workspaceName: string;
  status: 'ambiguous' | 'needs_review';
  /** The delivery's own text (a thread part's), and which part of how many (1 of 1 for other kinds). */
  text: string;
  part: number;
  parts: number;
  accountId: string;
  handle: string;
  provider: string;
  updatedAt: Date;
  nextCheckAt: Date | null;
  reason: string | null;
  evidence: Record<string, unknown> | null;
  checks: number;
};

/** Ambiguous and needs_review deliveries in the given workspaces (the admin's own), oldest first. */
export async function listReviewItems(
  db: Executor,
  params: {
    workspaceIds: string[];
    accountId?: string;
    status?: 'ambiguous' | 'needs_review';
    olderThanMinutes?: number;
  },
): Promise<ReviewItem[]> {
  if (params.workspaceIds.length === 0) return [];
  const result = await db.execute(sql`
    select d.id as "deliveryId", d.post_id as "postId", d.workspace_id as "workspaceId", w.name as "workspaceName", d.status,
      ${deliveryTextSql} as text, d.part, ${partCount} as parts, a.id as "accountId", a.handle, a.provider, d.updated_at as "updatedAt",
      case when d.status = 'ambiguous' then d.due_at end as "nextCheckAt",
      (select e.reason from delivery_events e where e.delivery_id = d.id order by e.id desc limit 1) as reason,
      (select r.evidence from reconciliations r where r.delivery_id = d.id order by r.checked_at desc limit 1) as evidence,
      (select count(*)::int from reconciliations r where r.delivery_id = d.id) as checks
    from deliveries d
    join posts p on p.id = d.post_id
    join social_accounts a on a.id = d.account_id
    join workspaces w on w.id = d.workspace_id
    where d.workspace_id = ${uuidAny(params.workspaceIds)}
      and d.status in ('ambiguous', 'needs_review')
      ${params.status ? sql`and d.status = ${params.status}` : sql``}
      ${params.accountId ? sql`and d.account_id = ${params.accountId}` : sql``}
      ${params.olderThanMinutes ? sql`and d.updated_at < now() - make_interval(mins => ${params.olderThanMinutes})` : sql``}
    order by w.name, d.updated_at
    limit 500`);
  return [...result].map((r) => {
    const row = r as Record<string, unknown>;
    return {
      ...row,
      updatedAt: new Date(row.updatedAt as string),
      nextCheckAt: row.nextCheckAt ? new Date(row.nextCheckAt as string) : null,
    } as ReviewItem;
  });
}

export async function countReviewItems(db: Executor, params: { workspaceIds: string[] }): Promise<number> {
  if (params.workspaceIds.length === 0) return 0;
  const result = await db.execute(sql`
    select count(*)::int as n from deliveries
    where workspace_id = ${uuidAny(params.workspaceIds)} and status in ('ambiguous', 'needs_review')`);
  return Number(([...result][0] as { n: number }).n);
}

export type CopiesUnderReview = {
  status: string;
  accountId: string;
  provider: ProviderName;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  accountDisconnected: boolean;
  /** The copies the latest reconciliation found, oldest first (only ever our own text, in our attempts' window). */
  copies: { id: string; url: string | null; createdAt: string }[];
};

/** Server side only (holds sealed credentials): a delivery in the workspace with the copies its last check listed. */
export async function getCopiesUnderReview(
  db: Executor,
  params: { workspaceId: string; deliveryId: string },
): Promise<CopiesUnderReview | null> {
  const result = await db.execute(sql`
    select d.status, a.id as "accountId", a.provider, a.base_url as "baseUrl", a.platform_user_id as "platformUserId", a.credentials_encrypted as "credentialsEncrypted",
      a.disconnected_at is not null as "accountDisconnected",
      coalesce((select r.evidence->'copies' from reconciliations r where r.delivery_id = d.id order by r.checked_at desc limit 1), '[]'::jsonb) as copies
    from deliveries d join social_accounts a on a.id = d.account_id
    where d.id = ${params.deliveryId} and d.workspace_id = ${params.workspaceId}`);
  return ([...result][0] as CopiesUnderReview | undefined) ?? null;
}

import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import {
  approvalDecisions,
  approvalLinks,
  auditLog,
  notifications,
  posts,
  workspaces,
  type ApprovalDecision,
} from '../schema';

export type DecisionInsert = {
  workspaceId: string;
  postId: string;
  revision: number;
  decision: 'approved' | 'changes_requested';
  comment: string | null;
  decidedByUserId: string | null;
  decidedByApiKeyId: string | null;
  approvalLinkId: string | null;
  deciderName: string;
};

/**
 * Inserts the decision unless the revision already has one (approval_decisions_post_revision_uq): returns the
 * new row, or null for the loser of a race, who then reads the winner with getDecision.
 */
export async function insertDecision(db: Executor, row: DecisionInsert): Promise<ApprovalDecision | null> {
  const [inserted] = await db
    .insert(approvalDecisions)
    .values(row)
    .onConflictDoNothing({ target: [approvalDecisions.postId, approvalDecisions.revision] })
    .returning();
  return inserted ?? null;
}

export async function getDecision(db: Executor, params: { workspaceId: string; postId: string; revision: number }) {
  const [row] = await db
    .select()
    .from(approvalDecisions)
    .where(
      and(
        eq(approvalDecisions.workspaceId, params.workspaceId),
        eq(approvalDecisions.postId, params.postId),
        eq(approvalDecisions.revision, params.revision),
      ),
    );
  return row ?? null;
}

export async function listDecisions(db: Executor, params: { workspaceId: string; postId: string }) {
  return db
    .select()
    .from(approvalDecisions)
    .where(and(eq(approvalDecisions.workspaceId, params.workspaceId), eq(approvalDecisions.postId, params.postId)))
    .orderBy(desc(approvalDecisions.revision));
}

/** The post's approval facts, read under the caller's delivery locks. */
export async function getPostForApproval(db: Executor, params: { workspaceId: string; postId: string }) {
  const [row] = await db
    .select({ revision: posts.revision, createdByUserId: posts.createdByUserId, text: posts.text })
    .from(posts)
    .where(and(eq(posts.id, params.postId), eq(posts.workspaceId, params.workspaceId)));
  return row ?? null;
}

export async function insertDecisionNotice(
  db: Executor,
  params: { workspaceId: string; postId: string; userId: string | null; kind: string; message: string },
) {
  await db.insert(notifications).values(params);
}

export async function insertAuditEntry(
  db: Executor,
  params: {
    workspaceId: string;
    actorUserId: string | null;
    action: string;
    targetType: string;
    targetId: string;
    detail: Record<string, unknown>;
  },
) {
  await db.insert(auditLog).values(params);
}

/**
 * Posts waiting for a decision on their current revision (the Approvals list, a week's client link), soonest
 * first; with `recentMinutes`, also those decided in that many last minutes (the list keeps showing what was just decided).
 */
export async function listPendingApprovals(
  db: Executor,
  params: { workspaceId: string; before?: Date; recentMinutes?: number },
) {
  const result = await db.execute<{ id: string; text: string; scheduledAt: Date; revision: number; kind: string }>(sql`
    select p.id, p.text, p.scheduled_at as "scheduledAt", p.revision, p.kind from posts p
    where p.workspace_id = ${params.workspaceId}
      and ((exists (select 1 from deliveries d where d.post_id = p.id and d.status = 'awaiting_approval')
          and not exists (select 1 from approval_decisions a where a.post_id = p.id and a.revision = p.revision))
        ${
          params.recentMinutes
            ? sql`or exists (select 1 from approval_decisions a where a.post_id = p.id and a.revision = p.revision
          and a.decided_at >= now() - make_interval(mins => ${params.recentMinutes}))`
            : sql``
        })
      ${params.before ? sql`and p.scheduled_at < ${params.before.toISOString()}::timestamptz` : sql``}
    order by p.scheduled_at, p.id
    limit 200`);
  return [...result].map((r) => ({ ...r, scheduledAt: new Date(r.scheduledAt) }));
}

/** Posts whose current revision a client asked to change (still awaiting approval), for the Approvals list. */
export async function listChangesRequested(db: Executor, params: { workspaceId: string }) {
  const result = await db.execute<{
    id: string;
    text: string;
    scheduledAt: Date;
    comment: string | null;
    deciderName: string;
    decidedAt: Date;
  }>(sql`
    select p.id, p.text, p.scheduled_at as "scheduledAt", a.comment, a.decider_name as "deciderName", a.decided_at as "decidedAt"
    from posts p join approval_decisions a on a.post_id = p.id and a.revision = p.revision
    where p.workspace_id = ${params.workspaceId} and a.decision = 'changes_requested'
      and exists (select 1 from deliveries d where d.post_id = p.id and d.status = 'awaiting_approval')
    order by p.scheduled_at, p.id
    limit 200`);
  return [...result].map((r) => ({ ...r, scheduledAt: new Date(r.scheduledAt), decidedAt: new Date(r.decidedAt) }));
}

export async function insertApprovalLink(
  db: Executor,
  params: {
    workspaceId: string;
    secretHash: string;
    postIds: string[];
    label: string;
    createdByUserId: string | null;
    expiresAt: Date;
  },
) {
  const [row] = await db.insert(approvalLinks).values(params).returning({ id: approvalLinks.id });
  return row!;
}

export async function getApprovalLink(db: Executor, params: { id: string }) {
  const [row] = await db.select().from(approvalLinks).where(eq(approvalLinks.id, params.id));
  return row ?? null;
}

/** Links still usable (not revoked, not expired), newest first. */
export async function listActiveApprovalLinks(db: Executor, params: { workspaceId: string; postId?: string }) {
  return db
    .select({
      id: approvalLinks.id,
      label: approvalLinks.label,
      postCount: sql<number>`cardinality(${approvalLinks.postIds})`,
      expiresAt: approvalLinks.expiresAt,
      createdAt: approvalLinks.createdAt,
    })
    .from(approvalLinks)
    .where(
      and(
        eq(approvalLinks.workspaceId, params.workspaceId),
        isNull(approvalLinks.revokedAt),
        gt(approvalLinks.expiresAt, sql`now()`),
        params.postId ? sql`${params.postId}::uuid = any(${approvalLinks.postIds})` : undefined,
      ),
    )
    .orderBy(desc(approvalLinks.createdAt));
}

/** Revokes a link of this workspace; repeating it changes nothing. Returns whether the link exists here. */
export async function revokeApprovalLink(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = await db
    .update(approvalLinks)
    .set({ revokedAt: sql`coalesce(${approvalLinks.revokedAt}, now())` })
    .where(and(eq(approvalLinks.id, params.id), eq(approvalLinks.workspaceId, params.workspaceId)))
    .returning({ id: approvalLinks.id });
  return Boolean(row);
}

export async function getWorkspaceApproval(db: Executor, params: { workspaceId: string }) {
  const [row] = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      approvalRequired: workspaces.approvalRequired,
      timeZone: workspaces.timeZone,
    })
    .from(workspaces)
    .where(eq(workspaces.id, params.workspaceId));
  return row ?? null;
}

/**
 * Turns "Posts need approval" on or off and, when that changes it, records who did (a member, or an API key) in the
 * audit log in the same statement: setting the value it already has writes nothing.
 */
export async function setApprovalRequired(
  db: Executor,
  params: { workspaceId: string; approvalRequired: boolean; actorUserId: string | null; apiKeyId: string | null },
) {
  const result = await db.execute(sql`
    with changed as (
      update ${workspaces} set approval_required = ${params.approvalRequired}
      where id = ${params.workspaceId} and approval_required is distinct from ${params.approvalRequired}
      returning id
    ), audited as (
      insert into ${auditLog} (workspace_id, actor_user_id, action, target_type, target_id, detail)
      select id, ${params.actorUserId}::uuid, 'workspace.approval_required', 'workspace', id::text,
        jsonb_build_object('approvalRequired', ${params.approvalRequired}::boolean, 'apiKeyId', ${params.apiKeyId}::uuid)
      from changed
    )
    select count(*)::int as n from changed`);
  return { changed: Number(([...result][0] as { n: number }).n) === 1 };
}

import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listPendingApprovals, setApprovalRequired } from '@/db/queries/approvals';
import { markMissedDeliveries } from '@/db/queries/deliveries';
import { listNotifications } from '@/db/queries/notifications';
import { createWebhookEndpoint } from '@/db/queries/webhooks';
import {
  approvalDecisions,
  auditLog,
  claims,
  deliveries,
  deliveryEvents,
  posts,
  webhookEvents,
  workspaces,
} from '@/db/schema';
import { makeUser } from '@/testing/db/factories';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import { createPost } from '@/lib/posts/create';
import { editPost } from '@/lib/posts/edit';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { decideApproval, recordApprovalDecision, type Decider } from './decide';

const sandbox = await startTestSandbox();
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url));

/** A post created by a member of a workspace whose posts need approval. */
async function awaitingPost(options: { scheduledAt?: string } = {}) {
  const account = await sandbox.connectAccount('x');
  await setApprovalRequired(db, {
    workspaceId: account.workspaceId,
    approvalRequired: true,
    actorUserId: null,
    apiKeyId: null,
  });
  const author = await makeUser(db);
  const text = sandbox.uniqueText('approval');
  const created = await createPost(
    db,
    createPostRequestSchema.parse({ text, accountIds: [account.productAccountId], ...options }),
    {
      workspaceId: account.workspaceId,
      source: 'form',
      idempotencyKey: randomUUID(),
      actor: 'test',
      userId: author.id,
    },
  );
  if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
  return { account, author, text, postId: created.postId, workspaceId: account.workspaceId };
}
const statuses = async (postId: string) =>
  (await db.select().from(deliveries).where(eq(deliveries.postId, postId)).orderBy(asc(deliveries.id))).map(
    (d) => d.status,
  );
const admin = async (name = 'Ada Admin'): Promise<Decider> => ({ kind: 'user', userId: (await makeUser(db)).id, name });

describe('approvals: a post awaiting approval never publishes until approved', () => {
  it('waits through publishers and the missed sweep after its time; approval publishes it once', async () => {
    const { account, text, postId, workspaceId, author } = await awaitingPost();
    expect(await statuses(postId)).toEqual(['awaiting_approval']);
    for (let i = 0; i < 3; i++) await Promise.all([publish(), publish(), markMissedDeliveries(db)]);
    expect(await statuses(postId)).toEqual(['awaiting_approval']);
    const [delivery] = await db.select().from(deliveries).where(eq(deliveries.postId, postId));
    expect(await db.select().from(claims).where(eq(claims.deliveryId, delivery!.id))).toEqual([]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(0);

    const approver = await admin('Ada Admin');
    const result = await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: approver });
    expect(result).toMatchObject({ kind: 'decided', decision: { decision: 'approved', deciderName: 'Ada Admin' } });
    expect(await statuses(postId)).toEqual(['scheduled']);
    await publish();
    await publish();
    expect(await statuses(postId)).toEqual(['sent']);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);

    // Audited (who, when) and the author told through the bell; another member does not get the author's notice.
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.targetId, postId));
    expect(audit).toMatchObject({ action: 'post.approved', actorUserId: (approver as { userId: string }).userId });
    const notices = await listNotifications(db, { workspaceId, userId: author.id });
    expect(notices.map((n) => [n.kind, n.postId])).toEqual([['post_approved', postId]]);
    expect(await listNotifications(db, { workspaceId, userId: randomUUID() })).toEqual([]);
    const history = await db
      .select({ from: deliveryEvents.fromStatus, to: deliveryEvents.toStatus })
      .from(deliveryEvents)
      .where(eq(deliveryEvents.deliveryId, delivery!.id))
      .orderBy(asc(deliveryEvents.id));
    expect(history.slice(0, 3)).toEqual([
      { from: null, to: 'awaiting_approval' },
      { from: 'awaiting_approval', to: 'scheduled' },
      { from: 'scheduled', to: 'publishing' },
    ]);
  });

  it('request changes needs a comment, keeps the post waiting and tells the author the comment', async () => {
    const { postId, workspaceId, author } = await awaitingPost();
    expect(
      await decideApproval(db, {
        workspaceId,
        postId,
        decision: 'changes_requested',
        comment: ' ',
        decider: await admin(),
      }),
    ).toMatchObject({ kind: 'invalid', errors: { comment: ['Say what should change'] } });
    expect(await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, postId))).toEqual([]);
    const result = await decideApproval(db, {
      workspaceId,
      postId,
      decision: 'changes_requested',
      comment: 'Use the new logo',
      decider: await admin('Carla Client'),
    });
    expect(result).toMatchObject({ kind: 'decided', decision: { decision: 'changes_requested' } });
    expect(await statuses(postId)).toEqual(['awaiting_approval']);
    await publish();
    expect(await statuses(postId)).toEqual(['awaiting_approval']);
    const [notice] = await listNotifications(db, { workspaceId, userId: author.id });
    expect(notice!.message).toContain('Use the new logo');
    expect(notice!.kind).toBe('changes_requested');
    // A repeat (or the other button) on the same revision reads the decision made.
    expect(
      await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin() }),
    ).toMatchObject({
      kind: 'already_decided',
      decision: { decision: 'changes_requested', deciderName: 'Carla Client', comment: 'Use the new logo' },
    });
  });
});

describe('approvals: the Approvals list', () => {
  it('lists what waits; what was just decided stays listed only when asked for (recentMinutes)', async () => {
    const { postId, workspaceId } = await awaitingPost({ scheduledAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await listPendingApprovals(db, { workspaceId })).map((p) => p.id)).toEqual([postId]);
    await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin() });
    expect(await listPendingApprovals(db, { workspaceId })).toEqual([]);
    expect((await listPendingApprovals(db, { workspaceId, recentMinutes: 15 })).map((p) => p.id)).toEqual([postId]);
    // Still listed once the publisher has it (publishing, sent): the decision is what keeps it there.
    await db.execute(sql`update deliveries set status = 'publishing' where post_id = ${postId}`);
    expect((await listPendingApprovals(db, { workspaceId, recentMinutes: 15 })).map((p) => p.id)).toEqual([postId]);
    await db.execute(
      sql`update approval_decisions set decided_at = now() - interval '16 minutes' where post_id = ${postId}`,
    );
    expect(await listPendingApprovals(db, { workspaceId, recentMinutes: 15 })).toEqual([]);
  });
});

describe('approvals: an edit re-requests approval', () => {
  it('an edit to an approved post sends it back to awaiting approval (a new revision), then approval publishes it', async () => {
    const in1h = new Date(Date.now() + 3600_000).toISOString();
    const { account, postId, workspaceId } = await awaitingPost({ scheduledAt: in1h });
    await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin() });
    expect(await statuses(postId)).toEqual(['scheduled']);
    const newText = sandbox.uniqueText('edited');
    const edited = await editPost(db, {
      workspaceId,
      postId,
      changes: { text: newText, scheduledAt: new Date().toISOString() },
      actor: 'test',
    });
    expect(edited).toMatchObject({ kind: 'ok', post: { status: 'awaiting_approval' } });
    const [post] = await db.select().from(posts).where(eq(posts.id, postId));
    expect(post!.revision).toBe(2);
    await publish();
    expect(await statuses(postId)).toEqual(['awaiting_approval']);
    // A decider who opened revision 1 cannot approve revision 2 unseen.
    expect(
      await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin(), revision: 1 }),
    ).toEqual({ kind: 'stale', currentRevision: 2 });
    expect(
      await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin(), revision: 2 }),
    ).toMatchObject({ kind: 'decided', decision: { revision: 2 } });
    await publish();
    await publish();
    expect(await statuses(postId)).toEqual(['sent']);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, newText)).toBe(1);
  });

  it('an edit after "request changes" asks again: the new revision is pending', async () => {
    const { postId, workspaceId } = await awaitingPost();
    await decideApproval(db, {
      workspaceId,
      postId,
      decision: 'changes_requested',
      comment: 'No',
      decider: await admin(),
    });
    await editPost(db, { workspaceId, postId, changes: { text: sandbox.uniqueText('fixed') }, actor: 'test' });
    expect(
      await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin() }),
    ).toMatchObject({
      kind: 'decided',
      decision: { revision: 2, decision: 'approved' },
    });
  });
});

describe('approvals: approved after its time', () => {
  it('within the lateness limit it is published at once', async () => {
    const { account, text, postId, workspaceId } = await awaitingPost();
    // Its time passed 10 minutes ago while it waited; the limit is 60 minutes.
    await db.execute(sql`update posts set scheduled_at = now() - interval '10 minutes' where id = ${postId}`);
    await db.execute(sql`update deliveries set due_at = now() - interval '10 minutes' where post_id = ${postId}`);
    const result = await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin() });
    expect(result).toMatchObject({ kind: 'decided', scheduled: 1, missed: 0 });
    await publish();
    await publish();
    expect(await statuses(postId)).toEqual(['sent']);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('past the lateness limit it is missed with the reason, never published late', async () => {
    const { account, text, postId, workspaceId } = await awaitingPost();
    await db.update(workspaces).set({ latenessLimitSeconds: 600 }).where(eq(workspaces.id, workspaceId));
    await db.execute(sql`update posts set scheduled_at = now() - interval '11 minutes' where id = ${postId}`);
    const result = await decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin() });
    expect(result).toMatchObject({ kind: 'decided', scheduled: 0, missed: 1 });
    await publish();
    const [delivery] = await db.select().from(deliveries).where(eq(deliveries.postId, postId));
    expect(delivery).toMatchObject({ status: 'missed' });
    expect(delivery!.failureReason).toMatch(/lateness limit/);
    const [event] = await db
      .select()
      .from(deliveryEvents)
      .where(and(eq(deliveryEvents.deliveryId, delivery!.id), eq(deliveryEvents.toStatus, 'missed')));
    expect(event!.reason).toBe('approved after the workspace lateness limit: not published late');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(0);
  });
});

describe('approvals: concurrent decisions produce one decision', () => {
  it('two approvers at once (real parallel connections): one decides, the other is told who did', async () => {
    const { postId, workspaceId } = await awaitingPost({ scheduledAt: new Date(Date.now() + 3600_000).toISOString() });
    await createWebhookEndpoint(db, {
      id: randomUUID(),
      workspaceId,
      url: 'https://hooks.example/semel',
      secretSealed: 'not-used-here',
      events: ['post.approved', 'post.rejected'],
    });
    // Both deciders are held at the same point (the delivery lock) until both are waiting, then let go together.
    const release = await holdLock(db, sql`select id from deliveries where post_id = ${postId} for update`);
    const first = decideApproval(db, { workspaceId, postId, decision: 'approved', decider: await admin('Ada') });
    const second = decideApproval(db, {
      workspaceId,
      postId,
      decision: 'changes_requested',
      comment: 'Wait',
      decider: await admin('Ben'),
    });
    const firstState = settled(first);
    const secondState = settled(second);
    await untilBlockedCount(2);
    expect([firstState.done, secondState.done]).toEqual([false, false]); // both sides are running
    await release();
    const results = await Promise.all([first, second]);
    const decided = results.filter((r) => r.kind === 'decided');
    const told = results.filter((r) => r.kind === 'already_decided');
    expect(decided).toHaveLength(1);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ decision: (decided[0] as { decision: object }).decision });
    expect(await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, postId))).toHaveLength(1);
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, postId));
    expect(audits).toHaveLength(1);
    // One decision, one outbound event (the endpoint subscribes to both kinds): the loser emitted nothing.
    const events = await db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.subject, `post:${postId}`));
    const winner = (decided[0] as { decision: { decision: string } }).decision.decision;
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      [winner === 'approved' ? 'post.approved' : 'post.rejected', 1],
    ]);
  });

  it('the unique (post, revision) constraint alone keeps one row when two recorders race past every lock', async () => {
    const { postId, workspaceId } = await awaitingPost({ scheduledAt: new Date(Date.now() + 3600_000).toISOString() });
    const row = (name: string) => ({
      workspaceId,
      postId,
      revision: 1,
      decision: 'approved' as const,
      comment: null,
      decidedByUserId: null,
      decidedByApiKeyId: null,
      approvalLinkId: null,
      deciderName: name,
      authorUserId: null,
    });
    let firstInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    let letFirstCommit!: () => void;
    const commitGate = new Promise<void>((resolve) => (letFirstCommit = resolve));
    const first = db.transaction(async (tx) => {
      const r = await recordApprovalDecision(tx, row('First'));
      firstInserted();
      await commitGate;
      return r;
    });
    await inserted;
    const second = db.transaction((tx) => recordApprovalDecision(tx, row('Second')));
    const secondState = settled(second);
    await untilBlocked(db, 'insert into "approval_decisions"'); // the second waits on the first's uncommitted row
    expect(secondState.done).toBe(false);
    letFirstCommit();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ won: true, row: { deciderName: 'First' } });
    expect(b).toMatchObject({ won: false, row: { deciderName: 'First' } });
    expect(await db.select().from(approvalDecisions).where(eq(approvalDecisions.postId, postId))).toHaveLength(1);
  });
});

/** Waits until `n` sessions wait on a lock (the two deciders behind the held delivery lock). */
async function untilBlockedCount(n: number) {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const [row] = [
      ...(await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`)),
    ];
    if (row!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`fewer than ${n} sessions blocked within 5 s`);
}

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/db/client';
import { deleteSlackWebhook, setEmailMode } from '@/db/queries/notification-settings';
import {
  claimDueNotificationSends,
  getNotificationSendResult,
  insertSlackTestSend,
  listOutboxEmails,
  storeOutboxEmail,
} from '@/db/queries/notification-sends';
import { disconnectAccount } from '@/db/queries/deliveries/disconnect';
import { memberships, notifications, notificationSends, outboxEmails, slackWebhooks } from '@/db/schema';
import { makeAccount, makeDelivery, makePost, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { logger } from '@/lib/logging/logger';
import { createOutboundLookup, parseAllowList } from '@/lib/net/outbound-guard';
import { createAgents } from '@/lib/net/send';
import { startSmtpCapture } from '@/testing/smtp';
import { startWebhookReceiver } from '@/testing/webhook-receiver';
import { deliverDueNotifications, type NotificationSenderOptions } from './send';
import { saveSlackWebhook } from './slack-settings';

const { db } = await createTestDatabase({ max: 20 });
const encryptionKey = randomBytes(32).toString('base64');
// This sender's own pools allow `localhost`, as OUTBOUND_ALLOWED_HOSTS=localhost would; production: public only.
const allow = parseAllowList('localhost');
const agents = createAgents({ lookup: createOutboundLookup(() => allow) });
const slack = await startWebhookReceiver();
afterAll(() => slack.close());

const sender = (now: Date, extra: NotificationSenderOptions = {}) =>
  deliverDueNotifications(db, { now: () => now, encryptionKey, agents, smtpUrl: null, ...extra });

/** A workspace with an admin (default: immediately), a manager on the daily digest and a viewer with email off. */
async function team(options: { slack?: boolean } = {}) {
  const ws = await makeWorkspace(db);
  const [admin, manager, viewer] = [await makeUser(db), await makeUser(db), await makeUser(db)];
  await db.insert(memberships).values([
    { workspaceId: ws.id, userId: admin.id, role: 'admin' },
    { workspaceId: ws.id, userId: manager.id, role: 'manager' },
    { workspaceId: ws.id, userId: viewer.id, role: 'viewer' },
  ]);
  await setEmailMode(db, { workspaceId: ws.id, userId: manager.id, emailMode: 'digest' });
  await setEmailMode(db, { workspaceId: ws.id, userId: viewer.id, emailMode: 'off' });
  if (options.slack !== false) {
    const saved = await saveSlackWebhook(
      db,
      { workspaceId: ws.id, url: slack.url, userId: admin.id, encryptionKey },
      { allow },
    );
    expect(saved.kind).toBe('saved');
  }
  return { ws, admin, manager, viewer };
}

/** `count` deliveries sent to needs review by the real disconnect statement (one notification each). */
async function needsReview(workspaceId: string, count: number) {
  const account = await makeAccount(db, workspaceId);
  for (let i = 0; i < count; i++) {
    const post = await makePost(db, workspaceId);
    await makeDelivery(db, { workspaceId, postId: post.id, accountId: account.id });
  }
  await disconnectAccount(db, { workspaceId, accountId: account.id, actor: 'test' });
  return account;
}

/** The same event written again, as a replayed reconcile would (`on conflict do nothing`, as every writer does). */
async function replayNeedsReview(database: Database, workspaceId: string) {
  await database.execute(sql`
    insert into notifications (workspace_id, delivery_id, kind, message)
    select workspace_id, id, 'needs_review', 'A delivery needs review: replayed' from deliveries
    where workspace_id = ${workspaceId} and status = 'needs_review'
    on conflict (delivery_id, kind) do nothing`);
}

const outboxOf = (workspaceId: string, userId: string) =>
  db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.workspaceId, workspaceId), eq(outboxEmails.userId, userId)));

const slackFor = (workspaceName: string) => slack.received.filter((r) => r.body.includes(workspaceName));

describe('notifications beyond the bell', () => {
  it('a needs-review event: one email per opted-in member and one Slack message, replayed and with two racing senders', async () => {
    slack.state.status = 200;
    slack.state.delayMs = 30;
    const { ws, admin, manager, viewer } = await team();
    await needsReview(ws.id, 3);
    // The event replayed, from two connections at once: the notification's unique key absorbs it.
    await Promise.all([replayNeedsReview(db, ws.id), replayNeedsReview(db, ws.id)]);
    expect(await db.$count(notifications, eq(notifications.workspaceId, ws.id))).toBe(3);

    const now = new Date();
    const [a, b] = await Promise.all([sender(now, { batchSize: 1 }), sender(now, { batchSize: 1 })]);
    // Both senders ran and took a share; together they claimed each of the 6 sends (3 emails, 3 Slack) once.
    expect(a.claimed).toBeGreaterThan(0);
    expect(b.claimed).toBeGreaterThan(0);
    expect(a.claimed + b.claimed).toBe(6);
    expect(a.sent + b.sent).toBe(6);
    // A third pass (a replayed job) finds nothing.
    expect((await sender(new Date(now.getTime() + 60_000))).claimed).toBe(0);

    const adminMail = await outboxOf(ws.id, admin.id);
    expect(adminMail).toHaveLength(3);
    expect(adminMail.every((m) => m.toAddress === admin.email && m.subject.includes('Needs review'))).toBe(true);
    expect(await outboxOf(ws.id, manager.id)).toHaveLength(0); // digest: not yet
    expect(await outboxOf(ws.id, viewer.id)).toHaveLength(0); // off
    expect(await db.$count(notificationSends, eq(notificationSends.userId, viewer.id))).toBe(0);
    const messages = slackFor(ws.name);
    expect(messages).toHaveLength(3);
    expect(JSON.parse(messages[0]!.body).text).toContain('Needs review');
  });

  it('the daily digest bundles a day’s notifications into one email per member, once, even with racing senders', async () => {
    const { ws, manager } = await team({ slack: false });
    await needsReview(ws.id, 2);
    expect(await db.$count(notificationSends, eq(notificationSends.userId, manager.id))).toBe(2);
    await sender(new Date());
    expect(await outboxOf(ws.id, manager.id)).toHaveLength(0);

    const tomorrow = new Date(Date.now() + 24 * 3_600_000);
    const [a, b] = await Promise.all([sender(tomorrow), sender(tomorrow)]);
    // Both ran (other workspaces' digests are bundled too); this member's two rows went into one digest send.
    expect(a.bundled + b.bundled).toBeGreaterThanOrEqual(2);
    const rowsOf = await db.select().from(notificationSends).where(eq(notificationSends.userId, manager.id));
    expect(rowsOf.filter((r) => r.status === 'bundled')).toHaveLength(2);
    expect(rowsOf.filter((r) => r.channel === 'email_digest')).toHaveLength(1);
    await sender(new Date(tomorrow.getTime() + 60_000));
    const digest = await outboxOf(ws.id, manager.id);
    expect(digest).toHaveLength(1);
    expect(digest[0]!.subject).toMatch(/Daily digest for \d{4}-\d{2}-\d{2}: 2 notifications/);
    expect(digest[0]!.body.match(/Needs review/g)).toHaveLength(2);

    // A row of that day committed after its digest went out is not lost: it gets a digest of its own, once.
    await needsReview(ws.id, 1);
    const day = rowsOf.find((r) => r.channel === 'email_digest')!.digestDay!;
    await db.execute(
      sql`update notification_sends set digest_day = ${day} where user_id = ${manager.id} and status = 'digest'`,
    );
    await Promise.all([sender(tomorrow), sender(tomorrow)]);
    await sender(new Date(tomorrow.getTime() + 60_000));
    const after = await outboxOf(ws.id, manager.id);
    expect(after).toHaveLength(2);
    expect(after.map((m) => m.subject)).toContain(`[${ws.name}] Daily digest for ${day}: 1 notification`);
  });

  it('preference off: no send row, no email', async () => {
    const { ws, admin } = await team({ slack: false });
    await setEmailMode(db, { workspaceId: ws.id, userId: admin.id, emailMode: 'off' });
    await needsReview(ws.id, 1);
    await sender(new Date());
    expect(await db.$count(outboxEmails, eq(outboxEmails.workspaceId, ws.id))).toBe(0);
    expect(await db.$count(notificationSends, eq(notificationSends.workspaceId, ws.id))).toBe(1); // the manager's digest row only
  });

  it('a failing Slack receiver is retried with backoff, then succeeds once', async () => {
    slack.state.delayMs = 0;
    slack.state.status = 500;
    const { ws } = await team();
    await needsReview(ws.id, 1);
    const now = new Date();
    expect(await sender(now)).toMatchObject({ retrying: 1, sent: 1 }); // the admin's email went; Slack did not
    const [pending] = await db
      .select()
      .from(notificationSends)
      .where(and(eq(notificationSends.workspaceId, ws.id), eq(notificationSends.channel, 'slack')));
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: 'Slack answered HTTP 500' });
    // Not before its retry time (5 s after the failure) …
    expect((await sender(new Date(now.getTime() + 1_000))).claimed).toBe(0);
    slack.state.status = 200;
    // … then once.
    expect(await sender(new Date(now.getTime() + 6_000))).toMatchObject({ claimed: 1, sent: 1 });
    expect(await sender(new Date(now.getTime() + 60_000))).toMatchObject({ claimed: 0 });
    expect(slackFor(ws.name).map((r) => r.body)).toHaveLength(2); // the 500, then the success
    const [sent] = await db.select().from(notificationSends).where(eq(notificationSends.id, pending!.id));
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('"Send test" posts one test message; removing the webhook gives up its unsent messages', async () => {
    slack.state.status = 200;
    const { ws } = await team();
    const id = await insertSlackTestSend(db, { workspaceId: ws.id, testId: 'one' });
    expect(await insertSlackTestSend(db, { workspaceId: ws.id, testId: 'one' })).toBeNull(); // a replayed click
    expect(await sender(new Date(), { sendIds: [id!] })).toMatchObject({ claimed: 1, sent: 1 });
    expect(slackFor(ws.name).map((r) => JSON.parse(r.body).text)).toEqual([
      `A test message from Semel for ${ws.name}: Slack notifications work.`,
    ]);
    slack.state.status = 500;
    await needsReview(ws.id, 1);
    await sender(new Date());
    await deleteSlackWebhook(db, { workspaceId: ws.id });
    const slackRows = await db
      .select()
      .from(notificationSends)
      .where(and(eq(notificationSends.workspaceId, ws.id), eq(notificationSends.channel, 'slack')));
    expect(slackRows.map((r) => r.status).sort()).toEqual(['failed', 'sent']);
    expect(await getNotificationSendResult(db, { workspaceId: ws.id, id: id! })).toEqual({
      status: 'sent',
      lastError: null,
    });
    // An hour on, none of this workspace's Slack rows is claimed again (judged by its rows: other workspaces' digests
    // may bundle and go out, as the hour can cross midnight UTC).
    const requestsBefore = slackFor(ws.name).length;
    slack.state.status = 200;
    const later = await sender(new Date(Date.now() + 3_600_000), { sendIds: slackRows.map((r) => r.id) });
    expect(later.claimed).toBe(0);
    expect(slackFor(ws.name)).toHaveLength(requestsBefore);
    const after = await db
      .select({ status: notificationSends.status })
      .from(notificationSends)
      .where(and(eq(notificationSends.workspaceId, ws.id), eq(notificationSends.channel, 'slack')));
    expect(after.map((r) => r.status).sort()).toEqual(['failed', 'sent']);
  });

  it('I6 — tenancy: the Outbox lists only the workspace’s emails, and a member only their own', async () => {
    const a = await team({ slack: false });
    const b = await team({ slack: false });
    await setEmailMode(db, { workspaceId: a.ws.id, userId: a.manager.id, emailMode: 'immediately' });
    await needsReview(a.ws.id, 1);
    await needsReview(b.ws.id, 1);
    await sender(new Date());
    const all = await listOutboxEmails(db, { workspaceId: a.ws.id, userId: null, viewerId: a.admin.id, limit: 50 });
    expect(all.map((m) => m.toAddress).sort()).toEqual([a.admin.email, a.manager.email].sort());
    const own = await listOutboxEmails(db, {
      workspaceId: a.ws.id,
      userId: a.manager.id,
      viewerId: a.manager.id,
      limit: 50,
    });
    expect(own.map((m) => m.toAddress)).toEqual([a.manager.email]);
    expect(
      await listOutboxEmails(db, { workspaceId: a.ws.id, userId: b.admin.id, viewerId: b.admin.id, limit: 50 }),
    ).toEqual([]);
  });

  it('a sender whose lease ran out cannot store its email (fencing): one copy only', async () => {
    const { ws, admin } = await team({ slack: false });
    await needsReview(ws.id, 1);
    const now = new Date();
    const [stale] = await claimDueNotificationSends(db, { now, limit: 10, leaseMs: 1_000 });
    expect(stale).toBeDefined();
    const later = new Date(now.getTime() + 2_000);
    const fresh = await claimDueNotificationSends(db, { now: later, limit: 10, leaseMs: 60_000 });
    expect(fresh.map((s) => s.id)).toContain(stale!.id);
    const store = (generation: number) =>
      storeOutboxEmail(db, {
        sendId: stale!.id,
        generation,
        workspaceId: ws.id,
        userId: admin.id,
        toAddress: admin.email,
        subject: 's',
        body: 'b',
      });
    const [old, current] = await Promise.all([store(stale!.generation), store(stale!.generation + 1)]);
    expect([old, current]).toEqual([false, true]);
    expect(await outboxOf(ws.id, admin.id)).toHaveLength(1);
  });

  it('a sender whose lease lapsed before the call sends nothing; the next claim sends it once', async () => {
    slack.state.status = 200;
    const { ws } = await team();
    await needsReview(ws.id, 1);
    const now = new Date();
    const lapsed = await sender(now, { leaseMs: 0 }); // its lease is over by the time it would call
    expect(lapsed.fenced).toBeGreaterThanOrEqual(2);
    expect(slackFor(ws.name)).toHaveLength(0);
    expect(await db.$count(outboxEmails, eq(outboxEmails.workspaceId, ws.id))).toBe(0);
    await sender(now);
    expect(slackFor(ws.name)).toHaveLength(1);
    expect(await db.$count(outboxEmails, eq(outboxEmails.workspaceId, ws.id))).toBe(1);
  });

  it('with SMTP_URL the email goes through SMTP (a local receiver), once', async () => {
    const smtp = await startSmtpCapture();
    try {
      const { ws, admin } = await team({ slack: false });
      await needsReview(ws.id, 1);
      const [a, b] = await Promise.all([
        sender(new Date(), { smtpUrl: smtp.url }),
        sender(new Date(), { smtpUrl: smtp.url }),
      ]);
      expect(a.sent + b.sent).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual([admin.email]);
      expect(smtp.received[0]!.data).toContain('Needs review');
      expect(await db.$count(outboxEmails, eq(outboxEmails.workspaceId, ws.id))).toBe(0);
    } finally {
      await smtp.close();
    }
  });

  it('21.12 an SMTP refusal that names the recipient is masked in the stored error and the log line', async () => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onRcptTo(address, _session, callback) {
        callback(Object.assign(new Error(`No mailbox for <${address.address}> here`), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    const warn = vi.spyOn(logger, 'warn');
    try {
      const { ws, admin } = await team({ slack: false });
      await needsReview(ws.id, 1);
      const summary = await sender(new Date(), { smtpUrl: `smtp://127.0.0.1:${port}` });
      expect(summary.retrying).toBe(1);
      const [row] = await db
        .select({ lastError: notificationSends.lastError })
        .from(notificationSends)
        .where(and(eq(notificationSends.workspaceId, ws.id), eq(notificationSends.userId, admin.id)));
      expect(row!.lastError).toContain('[email]');
      expect(row!.lastError).not.toContain(admin.email);
      const logged = JSON.stringify(warn.mock.calls.filter((c) => String(c[1]) === 'notification send failed'));
      expect(logged).toContain('[email]');
      expect(logged).not.toContain(admin.email);
    } finally {
      warn.mockRestore();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('an internal Slack URL is refused and nothing is stored', async () => {
    const ws = await makeWorkspace(db);
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.5/hook', 'http://[::1]/hook', 'ftp://x.test/']) {
      const result = await saveSlackWebhook(db, { workspaceId: ws.id, url, userId: null, encryptionKey });
      expect(result.kind, url).toBe('refused');
    }
    expect(await db.$count(slackWebhooks, eq(slackWebhooks.workspaceId, ws.id))).toBe(0);
  });

  it('a missed delivery and a post waiting for approval notify once each; approval requests email admins only', async () => {
    slack.state.status = 200;
    const { ws, admin, manager } = await team();
    const second = await makeUser(db);
    await db.insert(memberships).values({ workspaceId: ws.id, userId: second.id, role: 'admin' });
    await setEmailMode(db, { workspaceId: ws.id, userId: manager.id, emailMode: 'immediately' });
    const account = await makeAccount(db, ws.id);
    const post = await makePost(db, ws.id);
    const missed = await makeDelivery(db, { workspaceId: ws.id, postId: post.id, accountId: account.id });
    await db.execute(sql`update deliveries set status = 'missed' where id = ${missed.id}`);
    const waiting = await makePost(db, ws.id);
    for (let i = 0; i < 2; i++) {
      const d = await makeDelivery(db, { workspaceId: ws.id, postId: waiting.id, accountId: account.id, part: i });
      await db.execute(sql`update deliveries set status = 'awaiting_approval' where id = ${d.id}`);
    }
    const kinds = await db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(eq(notifications.workspaceId, ws.id));
    // One approval request per admin (the bell shows it to them only), for the two deliveries of one revision.
    expect(kinds.map((k) => k.kind).sort()).toEqual(['approval_requested', 'approval_requested', 'missed']);
    await sender(new Date());
    const subjects = async (userId: string) => (await outboxOf(ws.id, userId)).map((m) => m.subject).sort();
    expect(await subjects(admin.id)).toEqual([`[${ws.name}] Approval requested`, `[${ws.name}] Delivery missed`]);
    expect(await subjects(second.id)).toEqual([`[${ws.name}] Approval requested`, `[${ws.name}] Delivery missed`]);
    expect(await subjects(manager.id)).toEqual([`[${ws.name}] Delivery missed`]);
    // Slack is the workspace's channel: one message per event, not one per admin.
    const posted = slackFor(ws.name).map((r) => JSON.parse(r.body).text as string);
    expect(posted.filter((t) => t.includes('Approval requested'))).toHaveLength(1);
    expect(posted.filter((t) => t.includes('Delivery missed'))).toHaveLength(1);
  });
});

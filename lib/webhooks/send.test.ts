import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAttempts, webhookEndpoints, webhookMessages, type WebhookEventType } from '@/db/schema';
import { claimDueWebhookMessages, recordWebhookAttempt, setWebhookEndpointEnabled } from '@/db/queries/webhooks';
import { makeAccount, makeDelivery, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { attemptClaimed } from '@/lib/jobs/leased-outbox';
import { createOutboundLookup, parseAllowList, type AllowList } from '@/lib/net/outbound-guard';
import { createAgents } from '@/lib/net/send';
import { LATE_RETRY_MS, RETRY_DELAYS_MS, RETRY_WINDOW_MS } from '@/lib/jobs/backoff';
import { createEndpoint } from './endpoints';
import { emitWebhookEvent } from './emit';
import { generateWebhookSecret, sealWebhookSecret } from './secret';
import { deliverDueWebhooks, sendWebhookMessage, webhookOutbox } from './send';
import { startWebhookReceiver, verifyStandardWebhook } from '@/testing/webhook-receiver';
import type { WebhookPayload } from './payload';

const { db } = await createTestDatabase({ max: 20 });
const encryptionKey = randomBytes(32).toString('base64');
// The test hook: this sender's own pools and guard allow `localhost` by name, as OUTBOUND_ALLOWED_HOSTS=localhost
// would. Production uses the pools guarded by the environment's list (blank: public addresses only).
const allow = parseAllowList('localhost');
const agents = createAgents({ lookup: createOutboundLookup(() => allow) });
const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());

const sender = (now: Date, extra: Parameters<typeof deliverDueWebhooks>[1] = {}) =>
  deliverDueWebhooks(db, { now: () => now, encryptionKey, agents, ...extra });

async function endpointFor(workspaceId: string, events: WebhookEventType[], secret = generateWebhookSecret()) {
  const result = await createEndpoint(db, { workspaceId, url: receiver.url, secret, events, encryptionKey }, { allow });
  if (result.kind !== 'created') throw new Error(result.message);
  return { ...result.endpoint, secret };
}

/** A delivery moved through real status changes (the trigger emits the events in the same transactions). */
async function deliveryMovedTo(workspaceId: string, ...statuses: string[]) {
  const account = await makeAccount(db, workspaceId);
  const post = await makePost(db, workspaceId);
  const delivery = await makeDelivery(db, { workspaceId, postId: post.id, accountId: account.id });
  for (const status of statuses)
    await db.execute(sql`update deliveries set status = ${status}::delivery_status where id = ${delivery.id}`);
  return delivery;
}

const bodies = () => receiver.received.map((r) => JSON.parse(r.body) as WebhookPayload);

beforeAll(() => {
  receiver.state.status = 200;
});

describe('outbound webhooks', () => {
  it('signs each event per Standard Webhooks (checked with the spec’s algorithm); the id is the event’s', async () => {
    receiver.received.length = 0;
    const ws = await makeWorkspace(db);
    const endpoint = await endpointFor(ws.id, ['delivery.sent', 'delivery.ambiguous']);
    const delivery = await deliveryMovedTo(ws.id, 'publishing', 'ambiguous', 'sent');
    await deliveryMovedTo(ws.id, 'publishing', 'failed'); // not subscribed: no event at all

    const summary = await sender(new Date());
    expect(summary).toMatchObject({ claimed: 2, succeeded: 2 });
    expect(receiver.received).toHaveLength(2);
    for (const message of receiver.received) {
      expect(verifyStandardWebhook(endpoint.secret, message)).toBe(true);
      expect(verifyStandardWebhook(generateWebhookSecret(), message)).toBe(false);
      expect(JSON.parse(message.body).id).toBe(message.id);
      expect(Math.abs(Number(message.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    }
    const tampered = { ...receiver.received[0]!, body: receiver.received[0]!.body.replace('delivery', 'Delivery') };
    expect(verifyStandardWebhook(endpoint.secret, tampered)).toBe(false);
    // One delivery's events carry a growing sequence: a late retry of #1 is older news than #2.
    const events = bodies().sort((a, b) => a.sequence - b.sequence);
    expect(events.map((e) => [e.type, e.sequence, e.subject])).toEqual([
      ['delivery.ambiguous', 1, `delivery:${delivery.id}`],
      ['delivery.sent', 2, `delivery:${delivery.id}`],
    ]);
    expect(events[1]!.data).toMatchObject({ deliveryId: delivery.id, status: 'sent', previousStatus: 'ambiguous' });
    // No secret in the payload, and the stored secret is sealed.
    for (const r of receiver.received) expect(r.body).not.toContain(endpoint.secret);
    const [stored] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(stored!.secretSealed).not.toContain(endpoint.secret.slice(6));
  });

  it('emitWebhookEvent writes in the caller’s transaction: a rolled-back change sends nothing', async () => {
    receiver.received.length = 0;
    const ws = await makeWorkspace(db);
    await endpointFor(ws.id, ['post.approved']);
    await db
      .transaction(async (tx) => {
        await emitWebhookEvent(tx, { workspaceId: ws.id, type: 'post.approved', subject: 'post:x', data: {} });
        throw new Error('rolled back');
      })
      .catch(() => {});
    const id = await emitWebhookEvent(db, { workspaceId: ws.id, type: 'post.approved', subject: 'post:y', data: {} });
    await sender(new Date());
    expect(receiver.received.map((r) => r.id)).toEqual([id]);
  });

  it('a disabled endpoint is sent nothing: its pending message waits, new events skip it; enabled, the same id goes out', async () => {
    receiver.received.length = 0;
    const ws = await makeWorkspace(db);
    const endpoint = await endpointFor(ws.id, ['post.approved']);
    const waiting = await emitWebhookEvent(db, {
      workspaceId: ws.id,
      type: 'post.approved',
      subject: 'post:a',
      data: {},
    });
    expect(
      await setWebhookEndpointEnabled(db, { workspaceId: ws.id, endpointId: endpoint.id, enabled: false }),
    ).toMatchObject({
      enabled: false,
    });
    const skipped = await emitWebhookEvent(db, {
      workspaceId: ws.id,
      type: 'post.approved',
      subject: 'post:b',
      data: {},
    });
    expect(skipped).toBeNull();
    await sender(new Date());
    await sender(new Date(Date.now() + 3_600_000));
    expect(receiver.received).toEqual([]);
    const pending = await db.select().from(webhookMessages).where(eq(webhookMessages.endpointId, endpoint.id));
    expect(pending.map((m) => [m.eventId, m.status, m.attempts])).toEqual([[waiting, 'pending', 0]]);

    // Another workspace cannot touch it.
    const other = await makeWorkspace(db);
    expect(
      await setWebhookEndpointEnabled(db, { workspaceId: other.id, endpointId: endpoint.id, enabled: true }),
    ).toBeNull();
    await setWebhookEndpointEnabled(db, { workspaceId: ws.id, endpointId: endpoint.id, enabled: true });
    await sender(new Date());
    expect(receiver.received.map((r) => r.id)).toEqual([waiting]);
  });

  it('two racing senders deliver each event once (both claim, both send, at the same time)', async () => {
    receiver.received.length = 0;
    receiver.state.delayMs = 30;
    receiver.state.maxInFlight = 0;
    const ws = await makeWorkspace(db);
    await endpointFor(ws.id, ['delivery.sent']);
    for (let i = 0; i < 24; i++) await deliveryMovedTo(ws.id, 'publishing', 'sent');

    const now = new Date();
    const [a, b] = await Promise.all([sender(now, { batchSize: 3 }), sender(now, { batchSize: 3 })]);
    receiver.state.delayMs = 0;
    expect(a.claimed).toBeGreaterThan(0);
    expect(b.claimed).toBeGreaterThan(0);
    expect(a.claimed + b.claimed).toBe(24);
    expect(a.succeeded + b.succeeded).toBe(24);
    // More requests in flight than one sender's batch: the two passes really overlapped.
    expect(receiver.state.maxInFlight).toBeGreaterThan(3);
    const ids = receiver.received.map((r) => r.id);
    expect(ids).toHaveLength(24);
    expect(new Set(ids).size).toBe(24);
  });

  it('a sender killed after sending, before recording: the lease runs out and the same webhook-id is sent again', async () => {
    receiver.received.length = 0;
    const ws = await makeWorkspace(db);
    await endpointFor(ws.id, ['delivery.failed']);
    await deliveryMovedTo(ws.id, 'publishing', 'failed');
    const t0 = new Date();

    const [claimed] = await claimDueWebhookMessages(db, { now: t0, limit: 10, leaseMs: 60_000 });
    expect(claimed).toBeDefined();
    const lost = await sendWebhookMessage(claimed!, { encryptionKey, agents }); // …and the process dies here
    expect(lost.ok).toBe(true);
    expect(receiver.received.map((r) => r.id)).toEqual([claimed!.eventId]);

    expect(await sender(new Date(t0.getTime() + 30_000))).toMatchObject({ claimed: 0 }); // lease still live
    expect(await sender(new Date(t0.getTime() + 61_000))).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(receiver.received.map((r) => r.id)).toEqual([claimed!.eventId, claimed!.eventId]);
    // The dead sender's late record is fenced off by the newer generation.
    expect(
      await recordWebhookAttempt(db, {
        messageId: claimed!.messageId,
        generation: claimed!.generation,
        outcome: lost,
        nextAttemptAt: null,
      }),
    ).toBe(false);
    const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, claimed!.messageId));
    expect(attempts.map((a) => a.generation)).toEqual([claimed!.generation + 1]);
  });

  it('a sender whose lease was taken over between its claim and its call sends nothing (two claimers)', async () => {
    receiver.received.length = 0;
    receiver.state.status = 200;
    const ws = await makeWorkspace(db);
    await endpointFor(ws.id, ['delivery.sent']);
    await deliveryMovedTo(ws.id, 'publishing', 'sent');
    const [message] = await db.select().from(webhookMessages).where(eq(webhookMessages.workspaceId, ws.id));
    const only = { limit: 10, messageIds: [message!.id] };
    const outbox = webhookOutbox(db, { encryptionKey, agents });
    const t0 = new Date();

    const [stale] = await claimDueWebhookMessages(db, { ...only, now: t0, leaseMs: 1_000 }); // sender A, then it stalls
    const [fresh] = await claimDueWebhookMessages(db, {
      ...only,
      now: new Date(t0.getTime() + 2_000),
      leaseMs: 60_000,
    });
    expect(fresh!.generation).toBe(stale!.generation + 1); // sender B took the lapsed lease over
    // A wakes up; by its own clock its lease is still live, but the lease is B's now: A sends and records nothing.
    expect(await attemptClaimed(outbox, stale!, () => new Date(t0.getTime() + 500))).toBe('fenced');
    expect(receiver.received).toHaveLength(0);
    expect(await attemptClaimed(outbox, fresh!, () => new Date(t0.getTime() + 2_000))).toBe('succeeded');
    expect(receiver.received.map((r) => r.id)).toEqual([stale!.eventId]);
    const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, message!.id));
    expect(attempts.map((a) => a.generation)).toEqual([fresh!.generation]);
  });

  it('a sender whose lease lapsed before the call sends nothing; the next claim sends it once', async () => {
    receiver.received.length = 0;
    receiver.state.status = 200;
    const ws = await makeWorkspace(db);
    await endpointFor(ws.id, ['delivery.failed']);
    await deliveryMovedTo(ws.id, 'publishing', 'failed');
    const [message] = await db.select().from(webhookMessages).where(eq(webhookMessages.workspaceId, ws.id));
    const now = new Date();
    // Its lease is over by the time it would call (one batch: a zero lease would be claimed again at once).
    expect(await sender(now, { leaseMs: 0, messageIds: [message!.id] })).toMatchObject({ claimed: 1, fenced: 1 });
    expect(receiver.received).toHaveLength(0);
    expect(await sender(now)).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(receiver.received).toHaveLength(1);
  });

  it('a receiver answering 500 is retried after 5 s, 30 s, 2 min, 10 min, 1 h, then every 3 h, for 24 h', async () => {
    receiver.received.length = 0;
    receiver.state.status = 500;
    const ws = await makeWorkspace(db);
    await endpointFor(ws.id, ['delivery.missed']);
    await deliveryMovedTo(ws.id, 'missed');
    const [message] = await db.select().from(webhookMessages).where(eq(webhookMessages.workspaceId, ws.id));
    const eventAt = message!.nextAttemptAt;

    const tries: number[] = [];
    let now = eventAt;
    for (let i = 0; i < 30; i++) {
      // Just before it is due, nothing is claimed.
      expect(await sender(new Date(now.getTime() - 1), { messageIds: [message!.id] })).toMatchObject({ claimed: 0 });
      await sender(now);
      tries.push(now.getTime());
      const [row] = await db.select().from(webhookMessages).where(eq(webhookMessages.id, message!.id));
      if (row!.status !== 'pending') break;
      now = row!.nextAttemptAt;
    }
    const gaps = tries.slice(1).map((t, i) => t - tries[i]!);
    const late = Math.floor((RETRY_WINDOW_MS - RETRY_DELAYS_MS.reduce((s, d) => s + d, 0)) / LATE_RETRY_MS);
    expect(gaps).toEqual([...RETRY_DELAYS_MS, ...Array(late).fill(LATE_RETRY_MS)]);
    expect(gaps.slice(0, 5)).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000]);
    expect(tries.at(-1)! - tries[0]!).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    const [final] = await db.select().from(webhookMessages).where(eq(webhookMessages.id, message!.id));
    expect(final).toMatchObject({ status: 'failed', attempts: tries.length, lastStatusCode: 500 });
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    const log = await db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, message!.id));
    expect(log).toHaveLength(tries.length);
    expect(log[0]!.responseExcerpt!.length).toBeLessThanOrEqual(200);
  });

  it('a quick hiccup recovers within a minute once the receiver heals, with the same webhook-id', async () => {
    receiver.received.length = 0;
    receiver.state.status = 503;
    const ws = await makeWorkspace(db);
    await endpointFor(ws.id, ['delivery.needs_review']);
    await deliveryMovedTo(ws.id, 'publishing', 'ambiguous', 'needs_review');
    const t0 = new Date();
    expect(await sender(t0)).toMatchObject({ retrying: 1 });
    expect(await sender(new Date(t0.getTime() + 5_000))).toMatchObject({ retrying: 1 });
    receiver.state.status = 200;
    expect(await sender(new Date(t0.getTime() + 35_000))).toMatchObject({ succeeded: 1 });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
  });

  it('internal URLs are refused when an endpoint is created', async () => {
    const ws = await makeWorkspace(db);
    const none: AllowList = parseAllowList(undefined);
    const create = (url: string, guard: Parameters<typeof createEndpoint>[2]) =>
      createEndpoint(db, { workspaceId: ws.id, url, events: ['delivery.sent'], encryptionKey }, guard);
    for (const url of [
      `http://127.0.0.1:${receiver.port}/hooks`,
      'http://10.1.2.3/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hooks',
      `http://localhost:${receiver.port}/hooks`, // a real DNS name resolving to loopback
    ])
      expect(await create(url, { allow: none }), url).toMatchObject({ kind: 'refused', field: 'url' });
    const rebound = await create('https://hooks.example.test/x', {
      allow: none,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(rebound).toMatchObject({ kind: 'refused', message: expect.stringContaining('loopback') });
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, ws.id))).toEqual([]);
  });

  it('internal URLs are refused at send time too (stored before, or re-pointed by DNS later)', async () => {
    receiver.received.length = 0;
    receiver.state.status = 200;
    const ws = await makeWorkspace(db);
    const rebinding = createAgents({
      lookup: createOutboundLookup(
        () => parseAllowList(undefined),
        (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
      ),
    });
    for (const url of [`http://127.0.0.1:${receiver.port}/hooks`, `http://rebound.example.test:${receiver.port}/`]) {
      const id = crypto.randomUUID();
      const secret = generateWebhookSecret();
      await db.insert(webhookEndpoints).values({
        id,
        workspaceId: ws.id,
        url,
        events: ['delivery.sent'],
        secretSealed: sealWebhookSecret(secret, encryptionKey, id),
      });
    }
    await deliveryMovedTo(ws.id, 'publishing', 'sent');
    const summary = await deliverDueWebhooks(db, { now: () => new Date(), encryptionKey, agents: rebinding });
    expect(summary).toMatchObject({ claimed: 2, retrying: 2, succeeded: 0 });
    expect(receiver.received).toHaveLength(0);
    const log = await db
      .select({ error: webhookAttempts.error, statusCode: webhookAttempts.statusCode })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.workspaceId, ws.id));
    expect(log).toHaveLength(2);
    for (const row of log) expect(row).toMatchObject({ statusCode: null, error: expect.stringMatching(/not allowed/) });
  });
});

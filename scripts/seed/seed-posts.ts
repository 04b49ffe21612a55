import { addDays, startOfWeek, zonedParts } from '@/lib/calendar/grid';
import { checkImage } from '@/lib/media/image';
import type { MediaStorage } from '@/lib/media/storage';
import { resolveBaseUrl } from '@/lib/providers/base-url';
import type { ProviderName } from '@/db/schema';
import { RECONCILE_DEFAULTS } from '@/lib/reconcile/options';
import { registerProductSandboxAccounts } from '@/lib/sandbox/workspace-scope';
import { zonedLocalToUtc } from '@/lib/time/zoned';
import type { Database, Executor } from '@/db/client';
import type { Delivery } from '@/db/schema';
import { insertMedia, insertPostMedia } from '@/db/queries/media';
import { resolveReviewItem } from '@/db/queries/deliveries';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { demoImage } from './seed-image';
import {
  backdateCreation,
  backdateDecision,
  moveDelivery,
  publishOnce,
  recordCheck,
  storeSandboxCopy,
  type SandboxCopy,
  type SeededDelivery,
} from './seed-history';

// A demo week (this week and the next, in the workspace's zone): posts in every state a first run should show,
// each with the history the publisher and reconciler would have written and, for what went out, the copies on
// the sandbox network itself, so reconciliation and the Sandbox page agree with the calendar.

export type SeedAccount = { id: string; provider: ProviderName; handle: string; platformUserId: string };

export type SeedPostsOptions = {
  workspaceId: string;
  timeZone: string;
  latenessLimitSeconds: number;
  accounts: SeedAccount[];
  /** The member the posts are by (their images' uploader). */
  authorUserId: string;
  /** The admin who decided the one review item the demo week shows as settled by a person. */
  adminUserId: string;
  encryptionKey: string;
  /** This app's origin: sandbox links are absolute, as the provider clients make them. */
  origin: string;
  media: MediaStorage;
  now: Date;
  /** The publisher's call timeout and the per-network allowance: when the "being verified" post is first checked. */
  callTimeoutMs: number;
  allowanceMs: Record<ProviderName, number>;
};

const SEED_WORKER = 'seed:demo-week';
const SENT_RULE = { x: ['x-tweet-created', 201], mastodon: ['mastodon-status-created', 200] } as const;
const PUBLISHED = 'Published; the platform returned its id.';
const TIMED_OUT = 'No answer before the timeout: the platform may have published it.';

const SCHEDULED_TEXTS = [
  'New in the shop this week: the autumn collection, in five colours. Which one is yours?',
  'Live Q&A on Thursday at 5 pm: bring your questions about scheduling across networks.',
  'Three tips for a calmer content calendar: batch your writing, plan slots, review once a week.',
  'Customer story: how a two-person team posts daily without ever posting twice.',
  'Reminder: our support hours change next week. Mornings 8 to 12, afternoons 1 to 6.',
  'Behind the scenes: what "ambiguous — being verified" means, and why we never guess.',
  'Weekend reading: five long-form pieces our team loved this month.',
];

/** Idempotent per week: each post has a key naming the week, so a restart adds nothing and next week gets its own. */
export async function seedDemoPosts(db: Database, o: SeedPostsOptions) {
  const week = startOfWeek(zonedParts(o.now, o.timeZone).date);
  const key = (name: string) => `seed:${week}:${name}`;
  const x = o.accounts.find((a) => a.provider === 'x')!;
  const mastodon = o.accounts.find((a) => a.provider === 'mastodon')!;
  const byProvider = (p: ProviderName) => o.accounts.filter((a) => a.provider === p).map((a) => a.id);
  // The sandbox knows the seeded accounts (their copies live on it); as the app does on first use.
  await registerProductSandboxAccounts(db, o.encryptionKey);

  const past = pastSlots(o, week, 5);
  const future = futureSlots(o, week, 9);
  const link = (a: SeedAccount, id: string) =>
    a.provider === 'x'
      ? `${resolveBaseUrl('/api/sandbox/x', o.origin)}/2/tweets/${id}`
      : `${resolveBaseUrl('/api/sandbox/mastodon', o.origin)}/api/v1/statuses/${id}`;

  /** One post in its own transaction; nothing when its key exists (a re-run, or a parallel seed won). */
  const post = async (
    name: string,
    spec: { text: string; at: Date; accounts: string[]; parts?: string[]; draft?: boolean },
    history?: (tx: Executor, rows: Delivery[]) => Promise<void>,
  ) =>
    db.transaction(async (tx) => {
      const createdAt = new Date(Math.min(o.now.getTime(), spec.at.getTime() - 86_400_000));
      const created = await insertPostWithDeliveries(tx, {
        post: {
          workspaceId: o.workspaceId,
          kind: spec.parts ? 'thread' : 'post',
          text: spec.parts?.[0] ?? spec.text,
          scheduledAt: spec.at,
          source: 'form',
          idempotencyKey: key(name),
          createdByUserId: o.authorUserId,
          createdAt,
          updatedAt: createdAt,
        },
        accountIds: spec.accounts,
        parts: spec.parts,
        status: spec.draft ? 'draft' : 'scheduled',
        actor: `user:${o.authorUserId}`,
      });
      if (!created) return null;
      await backdateCreation(
        tx,
        created.deliveries.map((d) => d.id),
        createdAt,
      );
      const rows = [...created.deliveries].sort((a, b) => a.part - b.part);
      await history?.(tx, rows);
      return created.post.id;
    });

  /** Sent at `at` (+ a few seconds per account): the platform's copy, then the delivery's history. */
  const sendAll = (text: string, at: Date, accounts: SeedAccount[]) => async (tx: Executor, rows: Delivery[]) => {
    for (const [i, account] of accounts.entries()) {
      const d = rows.find((r) => r.accountId === account.id)!;
      await sendOne(tx, d, account, text, new Date(at.getTime() + 300 + i * 900));
    }
  };
  const sendOne = async (
    tx: Executor,
    d: SeededDelivery,
    account: SeedAccount,
    text: string,
    at: Date,
    reply?: SandboxCopy,
  ): Promise<SandboxCopy> => {
    const provider = account.provider as 'x' | 'mastodon';
    const durationMs = 240 + (text.length % 5) * 60;
    const copy = await storeSandboxCopy(tx, {
      platform: provider,
      platformUserId: account.platformUserId,
      text,
      createdAt: new Date(at.getTime() + durationMs - 40),
      kind: reply ? 'reply' : 'post',
      inReplyToId: reply?.id,
      idempotencyKey: provider === 'mastodon' ? d.id : null,
    });
    const [rule, httpStatus] = SENT_RULE[provider];
    await publishOnce(tx, d, at, SEED_WORKER, {
      outcome: 'sent',
      durationMs,
      httpStatus,
      rule,
      reason: PUBLISHED,
      externalId: copy.id,
      url: link(account, copy.id),
    });
    return copy;
  };

  // Sent earlier this week, with links (and copies on the sandbox).
  const launch = 'Our new scheduling guide is out: plan a month of posts in an afternoon.';
  await post(
    'sent-launch',
    { text: launch, at: past[2]!, accounts: [x.id, mastodon.id] },
    sendAll(launch, past[2]!, [x, mastodon]),
  );
  const hours = 'We are open on the public holiday: support answers as usual, 9 to 5.';
  await post(
    'sent-hours',
    { text: hours, at: past[4]!, accounts: [mastodon.id] },
    sendAll(hours, past[4]!, [mastodon]),
  );

  // A thread, sent: each part a reply to the part before it, on the platform too.
  const thread = [
    'How we make sure every post goes out exactly once — a short thread.',
    '1/ Each post gets a key when you open the composer, so a double click or a retry never makes a second one.',
    '2/ If a network times out after taking the post, we do not resend: we read the account and find it first.',
  ];
  await post('sent-thread', { text: thread[0]!, at: past[3]!, accounts: [x.id], parts: thread }, async (tx, rows) => {
    let previous: SandboxCopy | undefined;
    for (const [k, d] of rows.entries())
      previous = await sendOne(tx, d, x, thread[k]!, new Date(past[3]!.getTime() + 300 + k * 2_100), previous);
  });

  // Missed: due while the app was down, past the workspace's lateness limit; never published late.
  const missedAt = past[0]!;
  await post(
    'missed',
    { text: 'Flash sale ends tonight: 20% off everything.', at: missedAt, accounts: [mastodon.id] },
    async (tx, [d]) => {
      const at = new Date(missedAt.getTime() + (o.latenessLimitSeconds + 420) * 1000);
      await moveDelivery(tx, d!, {
        from: 'scheduled',
        to: 'missed',
        at,
        actor: 'system:publisher',
        reason: 'past the workspace lateness limit',
        set: { settled: true },
      });
    },
  );

  // In review: the call timed out (nothing was stored), the app was then down; when the reconciler could read
  // the account, the post was not there and it was too late to publish again. An admin decides, with the evidence.
  const reviewAt = past[1]!;
  const reviewText = 'Webinar recording is up: "Scheduling without duplicates", 40 minutes.';
  /** Timed out, then not found by the reconciler before it was too late to publish again: waits for review. */
  const toReview = async (tx: Executor, d: SeededDelivery, reviewAt: Date) => {
    const started = new Date(reviewAt.getTime() + 250);
    await publishOnce(tx, d!, started, SEED_WORKER, {
      outcome: 'ambiguous',
      durationMs: o.callTimeoutMs,
      httpStatus: null,
      rule: 'timeout-without-response',
      reason: TIMED_OUT,
      nextCheckAt: new Date(started.getTime() + o.callTimeoutMs + o.allowanceMs.x),
    });
    const windowStart = new Date(started.getTime() - RECONCILE_DEFAULTS.windowBeforeMs);
    const firstCheck = new Date(started.getTime() + o.latenessLimitSeconds * 1000 + 35 * 60_000);
    const evidence = { read: 0, ids: [], copies: [] };
    const strategy = 'x-timeline';
    await recordCheck(tx, d!, {
      at: firstCheck,
      workerId: `${SEED_WORKER}:reconcile`,
      strategy,
      windowStart,
      readCount: 0,
      decision: 'not_found_recheck',
      reason: 'Not found yet; checking again after the read-lag delay',
      evidence,
      nextCheckAt: new Date(firstCheck.getTime() + 15_000),
    });
    const secondCheck = new Date(firstCheck.getTime() + 15_400);
    await recordCheck(tx, d!, {
      at: secondCheck,
      workerId: `${SEED_WORKER}:reconcile`,
      strategy,
      windowStart,
      readCount: 0,
      decision: 'needs_review',
      reason: 'Not found, and too late to publish again on time',
      evidence: {
        ...evidence,
        deadline: new Date(reviewAt.getTime() + o.latenessLimitSeconds * 1000).toISOString(),
      },
    });
  };
  await post('review', { text: reviewText, at: reviewAt, accounts: [x.id] }, (tx, [d]) => toReview(tx, d!, reviewAt));

  // Decided by an admin: the same story, but the post had landed (X's timeline did not show it in time); the admin
  // found it on the account and confirmed it live from /review, the real decision path (resolveReviewItem).
  const decidedAt = new Date(past[1]!.getTime() - 50 * 60_000);
  const decidedText = 'Case study: how a 12-brand agency plans a quarter of posts without a single double post.';
  await post('decided', { text: decidedText, at: decidedAt, accounts: [x.id] }, async (tx, [d]) => {
    const copy = await storeSandboxCopy(tx, {
      platform: 'x',
      platformUserId: x.platformUserId,
      text: decidedText,
      createdAt: new Date(decidedAt.getTime() + 430),
    });
    await toReview(tx, d!, decidedAt);
    const resolved = await resolveReviewItem(tx, {
      workspaceId: o.workspaceId,
      deliveryId: d!.id,
      actorUserId: o.adminUserId,
      resolution: { action: 'live', externalId: copy.id, url: link(x, copy.id) },
    });
    if (!resolved.applied) throw new Error('seed: the admin decision did not apply');
    await backdateDecision(tx, d!, new Date(decidedAt.getTime() + (o.latenessLimitSeconds + 50 * 60) * 1000));
  });

  // Being verified: the call just timed out after the sandbox stored the post ("timeout after commit"). The real
  // reconciler reads the account once every request that may still run has certainly ended (call timeout plus
  // the network's allowance, RECONCILE_ALLOWANCE_MS: a minute by default), finds the copy and settles it as sent.
  const verifyText = 'Doors open at 9 tomorrow for the community meetup — see you there!';
  const started = new Date(o.now.getTime() - o.callTimeoutMs);
  await post(
    'verifying',
    { text: verifyText, at: new Date(started.getTime() - 200), accounts: [x.id] },
    async (tx, [d]) => {
      await storeSandboxCopy(tx, {
        platform: 'x',
        platformUserId: x.platformUserId,
        text: verifyText,
        createdAt: new Date(started.getTime() + 180),
      });
      await publishOnce(tx, d!, started, SEED_WORKER, {
        outcome: 'ambiguous',
        durationMs: o.callTimeoutMs,
        httpStatus: null,
        rule: 'timeout-without-response',
        reason: TIMED_OUT,
        nextCheckAt: new Date(started.getTime() + o.callTimeoutMs + o.allowanceMs.x),
      });
    },
  );

  // Scheduled across the rest of this week and the next, on every network; one with an image; one draft.
  const targets = [
    [x.id],
    [x.id, mastodon.id, ...byProvider('bluesky')],
    byProvider('linkedin'),
    byProvider('threads'),
    [mastodon.id],
    byProvider('bluesky'),
    [o.accounts.find((a) => a.provider === 'x' && a.id !== x.id)?.id ?? x.id],
  ];
  for (const [i, text] of SCHEDULED_TEXTS.entries())
    await post(`scheduled-${i}`, { text, at: future[[0, 1, 3, 4, 5, 7, 8][i]!]!, accounts: targets[i]! });
  await post(
    'image',
    { text: 'Our new office, ready for the meetup. Come say hello!', at: future[2]!, accounts: [x.id, mastodon.id] },
    async (tx, rows) => {
      const checked = await checkImage(await demoImage());
      if (!('bytes' in checked)) throw new Error(`seed: demo image rejected: ${checked.message}`);
      const { sha256 } = await o.media.put(checked.bytes);
      const image = await insertMedia(tx, {
        workspaceId: o.workspaceId,
        sha256,
        type: checked.type,
        width: checked.width,
        height: checked.height,
        size: checked.bytes.length,
        altText: 'An illustrated calendar page with three coloured post cards pinned to it.',
        createdBy: `user:${o.authorUserId}`,
      });
      await insertPostMedia(tx, { postId: rows[0]!.postId, mediaIds: [image.id] });
    },
  );
  await post('draft', {
    text: 'Draft: end-of-month recap — numbers still to fill in.',
    at: future[6]!,
    accounts: [x.id, mastodon.id],
    draft: true,
  });
}

// Posting times (workspace wall clock) the demo week uses.
const PAST_TIMES = ['09:15', '11:40', '14:05', '16:30', '18:45'];
const FUTURE_TIMES = ['08:30', '10:00', '12:15', '15:00', '17:45'];
const HOURLY = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:20`);

function at(date: string, time: string, timeZone: string): Date {
  const result = zonedLocalToUtc(`${date}T${time}`, timeZone);
  if (!result.ok) throw new Error(result.error);
  return result.date;
}

/**
 * `n` times before now, early enough that the missed and in-review posts' deadlines have passed: at the usual
 * times this week, else hourly this week (a Monday morning), else reaching back into last week.
 */
function pastSlots(o: SeedPostsOptions, week: string, n: number): Date[] {
  const limit = o.now.getTime() - o.latenessLimitSeconds * 1000 - 45 * 60_000;
  const times = (days: number[], clock: string[]) =>
    days
      .flatMap((day) => clock.map((time) => at(addDays(week, day), time, o.timeZone)))
      .filter((t) => t.getTime() < limit);
  const thisWeek = [0, 1, 2, 3, 4, 5, 6];
  const usual = times(thisWeek, PAST_TIMES);
  if (usual.length >= n) return spread(usual, n);
  const hourly = times(thisWeek, HOURLY);
  if (hourly.length >= n) return spread(hourly, n);
  return times([-7, -6, -5, -4, -3, -2, -1, ...thisWeek], PAST_TIMES).slice(-n);
}

/** `n` times from a few hours ahead to the end of next week, spread evenly. */
function futureSlots(o: SeedPostsOptions, week: string, n: number): Date[] {
  const from = o.now.getTime() + 3 * 3_600_000;
  const candidates: Date[] = [];
  for (let day = 0; day < 14; day++)
    for (const time of FUTURE_TIMES) {
      const t = at(addDays(week, day), time, o.timeZone);
      if (t.getTime() > from) candidates.push(t);
    }
  return spread(candidates, n);
}

function spread<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  return Array.from({ length: n }, (_, i) => list[Math.round((i * (list.length - 1)) / (n - 1))]!);
}

import type { Database } from '@/db/client';
import {
  addInboxStreams,
  advanceInboxCursor,
  claimDueInboxStreams,
  listInboxPosts,
  releaseInboxStream,
  type ClaimedInboxStream,
} from '@/db/queries/inbox/cursors';
import { insertInboxItems, pruneInboxOwnMessages, recordOwnMessages } from '@/db/queries/inbox/items';
import { pruneInboxPresence } from '@/db/queries/inbox/work';
import { providerEnum } from '@/db/schema';
import { logger } from '@/lib/logging/logger';
import { ProviderReadError, type ProviderTransport } from '@/lib/providers';
import { inboxReaderForAccount, inboxStreams, type InboxPage, type InboxStream } from '@/lib/providers/inbox';
import { takeReadBudget, type ReadBudgetOptions } from '@/lib/read-budget/take';
import { announceAnsweredElsewhere, announceNewItems, settleAnswers } from './events';

export type InboxJobOptions = {
  workerId: string;
  /** Streams claimed per statement. */
  batchSize: number;
  leaseMs: number;
  /** One platform call's timeout. */
  readTimeoutMs: number;
  /** How often each stream is read (INBOX_READ_INTERVAL_MS). */
  intervalMs: number;
  /** Pages one stream may read in one run (each one call of the read budget). */
  maxPages: number;
  /** A stream's first read goes back this far. */
  backfillMs: number;
  /** Per-post streams (comments) read under the account's posts sent within this window. */
  postsWindowMs: number;
  /** Stop claiming after this long (a cron invocation's budget). */
  budgetMs: number;
  readBudget: ReadBudgetOptions;
  encryptionKey: string;
  origin?: string;
  transport?: ProviderTransport;
  /** Only these accounts' streams (tests). */
  accountIds?: string[];
};

export type InboxSummary = {
  added: number;
  claimed: number;
  pages: number;
  stored: number;
  answeredElsewhere: number;
  /** Handed back for later: the read budget was spent, or the account cannot be read now. */
  deferred: number;
  unreadable: number;
  fenced: number;
  /** Answers whose reply ended (sent or failed) in this run. */
  settled: number;
};

/** A stream the account cannot read now (disconnected, waiting for a reconnect): looked at again then. */
const PAUSE_MS = 6 * 3_600_000;
/** A stream its network no longer has (a reader changed): looked at again in a week. */
const UNSUPPORTED_MS = 7 * 24 * 3_600_000;
/** An item older than this is not read any more (two days back, 14 days of posts): nor are answers to it kept. */
const OWN_MESSAGES_KEPT_MS = 30 * 24 * 3_600_000;
/** How long before a lease runs out a reader stops starting calls. */
const LEASE_MARGIN_MS = 5_000;

/** Every network's streams, for the cursor rows each connected account gets. */
const ALL_STREAMS = providerEnum.enumValues.flatMap((provider) =>
  inboxStreams(provider).map((stream) => ({ provider, stream })),
);

/**
 * One inbox run (docs/inbox.md#reading), safe with any number of concurrent runners: give new accounts their stream
 * rows, claim due streams (SKIP LOCKED, a generation, a lease), and per account read its streams in order, one page
 * at a time: the read budget taken before each call (publishing keeps its reserved share:
 * docs/architecture.md#read-budget), the page's items stored once with the new cursor in one transaction fenced by the
 * claim, each batch announced (a notification, `inbox.received`). Then the answers whose reply ended are settled.
 */
export async function readInbox(db: Database, options: InboxJobOptions): Promise<InboxSummary> {
  const started = Date.now();
  const summary: InboxSummary = {
    added: await addInboxStreams(db, { streams: ALL_STREAMS }),
    claimed: 0,
    pages: 0,
    stored: 0,
    answeredElsewhere: 0,
    deferred: 0,
    unreadable: 0,
    fenced: 0,
    settled: 0,
  };
  while (Date.now() - started < options.budgetMs) {
    const batch = await claimDueInboxStreams(db, {
      workerId: options.workerId,
      limit: options.batchSize,
      leaseMs: options.leaseMs,
      accountIds: options.accountIds,
    });
    if (batch.length === 0) break;
    summary.claimed += batch.length;
    const leaseEnds = Date.now() + options.leaseMs - LEASE_MARGIN_MS;
    const byAccount = new Map<string, ClaimedInboxStream[]>();
    for (const c of batch) byAccount.set(c.accountId, [...(byAccount.get(c.accountId) ?? []), c]);
    await Promise.all(
      [...byAccount.values()].map(async (streams) => {
        // In the network's order: an account's answers are read after the items they answer.
        const order = inboxStreams(streams[0]!.provider);
        streams.sort((a, b) => order.indexOf(a.stream) - order.indexOf(b.stream));
        for (const claim of streams)
          await readStream(db, claim, options, leaseEnds, summary).catch((error) => {
            // The lease runs out and the stream is claimed again: nothing half-written (one transaction per page).
            logger.error({ accountId: claim.accountId, stream: claim.stream, err: error }, 'inbox read failed');
          });
      }),
    );
    if (batch.length < options.batchSize) break;
  }
  summary.settled = await settleAnswers(db);
  // Housekeeping, a batch a run: heartbeats long gone, own messages older than anything they could still answer.
  await pruneInboxPresence(db, { olderThanMs: 3_600_000 });
  await pruneInboxOwnMessages(db, { olderThanMs: OWN_MESSAGES_KEPT_MS });
  return summary;
}

async function readStream(
  db: Database,
  claim: ClaimedInboxStream,
  options: InboxJobOptions,
  leaseEnds: number,
  summary: InboxSummary,
): Promise<void> {
  const release = (nextReadAt: Date, error?: string) => releaseInboxStream(db, { ...fence(claim), nextReadAt, error });
  const later = (ms: number) => new Date(Date.now() + ms);
  if (claim.disconnected || !claim.canRead) {
    summary.deferred++;
    await release(later(PAUSE_MS));
    return;
  }
  const stream = streamOf(claim, options);
  if (!stream) {
    await release(later(UNSUPPORTED_MS));
    return;
  }
  const posts = stream.perPost
    ? await listInboxPosts(db, { accountId: claim.accountId, sinceMs: options.postsWindowMs, limit: 50 })
    : [];
  if (stream.perPost && posts.length === 0) {
    await release(later(options.intervalMs)); // no recent post of ours to read under: no call at all
    return;
  }
  let cursor = claim.cursor;
  let next = later(options.intervalMs);
  for (let page = 0; page < options.maxPages; page++) {
    if (Date.now() + options.readTimeoutMs > leaseEnds) {
      next = new Date();
      break;
    }
    const grant = await takeReadBudget(
      db,
      {
        account: {
          id: claim.accountId,
          workspaceId: claim.workspaceId,
          provider: claim.provider,
          sandbox: claim.sandbox,
        },
        calls: 1,
        purpose: 'inbox',
      },
      options.readBudget,
    );
    if (!grant.granted) {
      summary.deferred++;
      next = grant.retryAt;
      break;
    }
    let read: InboxPage;
    try {
      read = await stream.read({
        cursor,
        since: new Date(Date.now() - options.backfillMs),
        posts,
        timeoutMs: options.readTimeoutMs,
        signal: AbortSignal.timeout(Math.max(1_000, leaseEnds - Date.now())),
      });
    } catch (error) {
      if (!(error instanceof ProviderReadError)) throw error;
      summary.unreadable++;
      logger.warn(
        { accountId: claim.accountId, stream: claim.stream, reason: error.classification.reason },
        'inbox: unreadable',
      );
      const backoff = Math.min(options.intervalMs * 2 ** Math.min(claim.failures + 1, 6), 3_600_000);
      await release(error.classification.retryAt ?? later(backoff), error.classification.reason);
      return;
    }
    summary.pages++;
    const kept = await storePage(db, claim, read);
    if (!kept) {
      summary.fenced++;
      return; // a newer claim holds the stream: it releases it
    }
    summary.stored += kept.stored;
    summary.answeredElsewhere += kept.answered;
    cursor = read.cursor;
    if (!read.more) break;
    if (page === options.maxPages - 1) next = new Date(); // more waiting: read again at once
  }
  await release(next);
}

function streamOf(claim: ClaimedInboxStream, options: InboxJobOptions): InboxStream | null {
  try {
    const reader = inboxReaderForAccount(
      { ...claim, id: claim.accountId },
      { encryptionKey: options.encryptionKey, origin: options.origin, transport: options.transport },
    );
    return reader?.streams.find((s) => s.name === claim.stream) ?? null;
  } catch (error) {
    logger.warn({ accountId: claim.accountId, err: (error as Error).message }, 'inbox: no reader for the account');
    return null;
  }
}

/**
 * One page, in one transaction under the claim: the cursor moved (nothing at all when the claim was lost), the new
 * items stored once, the account's own messages kept and what they answer marked, and both announced.
 */
export async function storePage(db: Database, claim: ClaimedInboxStream, page: InboxPage) {
  return db.transaction(async (tx) => {
    if (!(await advanceInboxCursor(tx, { ...fence(claim), cursor: page.cursor }))) return null;
    const items = await insertInboxItems(tx, {
      workspaceId: claim.workspaceId,
      accountId: claim.accountId,
      provider: claim.provider,
      stream: claim.stream,
      items: page.items.map((i) => ({
        platformId: i.platformId,
        kind: i.kind,
        authorPlatformId: i.author.id,
        authorHandle: i.author.handle,
        authorName: i.author.name,
        text: i.text,
        url: i.url,
        media: i.media,
        inReplyTo: i.inReplyTo,
        conversationId: i.conversationId,
        receivedAt: i.createdAt,
      })),
    });
    const answered = await recordOwnMessages(tx, { accountId: claim.accountId, messages: page.own });
    await announceNewItems(tx, claim, items);
    await announceAnsweredElsewhere(tx, claim, answered);
    return { stored: items.length, answered: answered.length };
  });
}

const fence = (c: ClaimedInboxStream) => ({ accountId: c.accountId, stream: c.stream, generation: c.generation });

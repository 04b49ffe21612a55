import { createHash, randomUUID } from 'node:crypto';
import { POST_COLLECTION, recordCid, recordUri } from '@/sandbox/dialects/bluesky/records';
import { tidOf } from '@/sandbox/dialects/bluesky/tid';
import type { Platform, SandboxAccount, SandboxPost, SandboxStore } from '@/sandbox/store/types';
import { PEOPLE, personAccount, type Person } from './people';

// What people say to a sandbox account (docs/sandbox.md#inbound): replies under its posts, mentions of it, and DMs to
// it, as its network has them. Deterministic: an account that receives N a day gets one in each slot of 24 h / N, and
// what (a reply, a mention or a DM), from whom, with which words and when in the slot are drawn from the account's id and
// the slot's number, so every reader at any moment sees the same conversation. They are materialised when a listing
// asks (each once, by its key: racing readers store one) and served by each dialect through its real wire format, with
// the account's read faults like any listing.

export type InboundKind = 'reply' | 'mention' | 'dm';

/** What each network lets people send an account that its API lets the account read (docs/inbox.md#networks). */
export const INBOUND_KINDS: Record<Platform, readonly InboundKind[]> = {
  x: ['reply', 'mention', 'dm'],
  mastodon: ['reply', 'mention', 'dm'],
  bluesky: ['reply', 'mention'],
  threads: ['reply', 'mention'],
  linkedin: ['reply'],
  instagram: ['reply'],
  facebook: ['reply'],
  youtube: ['reply'],
  tiktok: [],
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** How far back an account's first listing finds what people said (at most this many slots). */
const HORIZON_MS = 2 * DAY;
const MAX_SLOTS = 200;
/** A reply answers one of the account's posts of the last three days. */
const REPLY_WINDOW_MS = 3 * DAY;

const REPLIES = [
  'Love this! When can I get one?',
  'Is this available in Europe too?',
  'This did not work for me: my order #{n} still has not arrived.',
  'Great news, congrats to the whole team!',
  'Could you share the link to the full announcement?',
  'How much does it cost?',
  'Any plans for a dark mode?',
  'Thanks for the update, very helpful.',
];
const MENTIONS = [
  '{at} do you ship to Canada?',
  'Shout-out to {at} for the quick support today!',
  '{at} your site seems to be down for me.',
  'Has anyone tried the new release from {at}?',
  'Waiting two weeks for a refund from {at}, any news?',
];
const DMS = [
  'Hi! I have a question about my order #{n}.',
  'Hello, is there a student discount?',
  'Hi there, can I change my delivery address?',
  'Thanks for the help yesterday!',
  'Hey, who should I talk to about a partnership?',
];

/** Uniform numbers in [0, 1) drawn from a seed: the same seed, the same numbers. */
function draws(seed: string, count: number): number[] {
  const digest = createHash('sha256').update(seed).digest();
  return Array.from({ length: count }, (_, i) => digest.readUInt16BE((i * 2) % 30) / 65_536);
}

const pick = <T>(list: readonly T[], u: number): T => list[Math.floor(u * list.length)]!;

/** How the account is mentioned in text on its network (`@user`, a Mastodon `@user@domain`, a Bluesky handle). */
function mentionOf(account: SandboxAccount): string {
  const handle = account.handle.replace(/^@/, '');
  return account.platform === 'mastodon' ? `@${handle.split('@')[0]}` : `@${handle}`;
}

export type PlannedInbound = {
  key: string;
  kind: InboundKind;
  person: Person;
  text: string;
  at: Date;
  /** The account's post a reply is under. */
  replyTo: SandboxPost | null;
};

/**
 * The account's inbound items due by `now`: one per slot of 24 h / `perDay` over the horizon. A reply needs a post of
 * the account in the three days before it (else it is a mention where the network has them, else nothing).
 */
export function plannedInbound(input: {
  account: SandboxAccount;
  perDay: number;
  /** The account's own posts, newest first. */
  posts: SandboxPost[];
  now: Date;
}): PlannedInbound[] {
  const kinds = INBOUND_KINDS[input.account.platform];
  if (input.perDay <= 0 || kinds.length === 0) return [];
  const span = DAY / input.perDay;
  const last = Math.floor(input.now.getTime() / span);
  const first = Math.max(Math.floor((input.now.getTime() - HORIZON_MS) / span), last - MAX_SLOTS);
  const planned: PlannedInbound[] = [];
  for (let slot = first; slot <= last; slot++) {
    const [offset, kindDraw, personDraw, textDraw, postDraw, number] = draws(
      `inbound:${input.account.platform}:${input.account.platformUserId}:${slot}`,
      6,
    ) as [number, number, number, number, number, number];
    const at = new Date(Math.floor((slot + offset) * span));
    if (at > input.now) continue;
    const candidates = input.posts.filter(
      (p) => p.createdAt < at && p.createdAt.getTime() > at.getTime() - REPLY_WINDOW_MS,
    );
    let kind: InboundKind = kindDraw < 0.5 ? 'reply' : pick(kinds, (kindDraw - 0.5) * 2);
    if (kind === 'reply' && candidates.length === 0) kind = kinds.includes('mention') ? 'mention' : 'reply';
    if (kind === 'reply' && candidates.length === 0) continue;
    const replyTo = kind === 'reply' ? pick(candidates.slice(0, 5), postDraw) : null;
    const template = pick(kind === 'reply' ? REPLIES : kind === 'mention' ? MENTIONS : DMS, textDraw);
    planned.push({
      key: `${input.account.id}:${slot}`,
      kind,
      person: pick(PEOPLE, personDraw),
      text: template.replace('{at}', mentionOf(input.account)).replace('{n}', String(1000 + Math.floor(number * 9000))),
      at,
      replyTo,
    });
  }
  return planned;
}

/** Keys already stored, per store: a listing asks the store only for what is new since the last one. */
const stored = new WeakMap<SandboxStore, Set<string>>();

/**
 * Stores what people said to the account up to `now` that is not stored yet (each once, by its key: two listings at
 * once store one). Called by every inbox listing before it reads; nothing when the account receives nothing.
 */
export async function receiveInbound(store: SandboxStore, account: SandboxAccount, now = new Date()): Promise<void> {
  const { inboundPerDay } = await store.getFaults(account.id);
  if (inboundPerDay <= 0) return;
  const posts = await store.listPosts(account.id, {
    kinds: ['post'],
    startTime: new Date(now.getTime() - HORIZON_MS - REPLY_WINDOW_MS),
    limit: 100,
  });
  const done = stored.get(store) ?? new Set<string>();
  stored.set(store, done);
  for (const plan of plannedInbound({ account, perDay: inboundPerDay, posts, now })) {
    if (done.has(plan.key)) continue;
    await storeInbound(store, account, plan);
    done.add(plan.key);
  }
}

/**
 * One message to the account now, from one of the people (the sandbox's control endpoint, tests): a reply under
 * `replyTo` (default: the account's newest post), a mention, or a DM. Its key is new: each call is a new message.
 */
export async function sendInbound(
  store: SandboxStore,
  account: SandboxAccount,
  input: { kind: InboundKind; text: string; person?: Person; replyTo?: SandboxPost | null; at?: Date },
): Promise<SandboxPost> {
  const replyTo =
    input.kind !== 'reply'
      ? null
      : (input.replyTo ?? (await store.listPosts(account.id, { kinds: ['post'], limit: 1 }))[0] ?? null);
  if (input.kind === 'reply' && !replyTo) throw new Error('The account has no post to reply to.');
  return storeInbound(store, account, {
    key: `${account.id}:sent:${randomUUID()}`,
    kind: input.kind,
    person: input.person ?? PEOPLE[0]!,
    text: input.text,
    at: input.at ?? new Date(),
    replyTo,
  });
}

async function storeInbound(store: SandboxStore, account: SandboxAccount, plan: PlannedInbound) {
  const author = await personAccount(store, account.platform, plan.person);
  const kind = plan.kind === 'dm' ? 'dm' : plan.kind === 'reply' ? 'reply' : 'post';
  const bluesky = account.platform === 'bluesky' ? blueskyRecord(account, plan) : null;
  return store.insertInbound({
    account: author,
    kind,
    text: plan.text,
    inReplyToId: bluesky?.parentUri ?? plan.replyTo?.id ?? null,
    // X names a DM's recipient by user id, Mastodon by the mention in its text.
    recipientId: plan.kind === 'dm' ? account.platformUserId : null,
    recordKey: bluesky?.recordKey ?? null,
    record: bluesky?.record ?? null,
    createdAt: plan.at,
    addressedTo: account.id,
    inboundKey: plan.key,
  });
}

/** A Bluesky post record as the person's PDS would hold it: a reply names its parent and root by strong reference. */
function blueskyRecord(account: SandboxAccount, plan: PlannedInbound) {
  // A TID of its time, its microseconds and clock id from the key: two people's posts of one millisecond differ.
  const spread = createHash('sha256').update(plan.key).digest().readUInt32BE(0);
  const recordKey = tidOf(BigInt(plan.at.getTime()) * 1000n + BigInt(spread % 1000), spread % 1024);
  const parent = plan.replyTo?.recordKey
    ? { uri: recordUri(account, plan.replyTo.recordKey), cid: recordCid(plan.replyTo.record ?? {}) }
    : null;
  const root = (plan.replyTo?.record?.reply as { root?: { uri: string; cid: string } } | undefined)?.root ?? parent;
  const record: Record<string, unknown> = {
    $type: POST_COLLECTION,
    text: plan.text,
    createdAt: plan.at.toISOString(),
    ...(parent && root ? { reply: { root, parent } } : {}),
  };
  return { recordKey, record, parentUri: parent?.uri ?? null };
}

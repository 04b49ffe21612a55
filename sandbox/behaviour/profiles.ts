import type {
  CreatePostResult,
  NewSandboxPost,
  Platform,
  Profile,
  SandboxPost,
  SandboxStore,
} from '@/sandbox/store/types';

// What each profile does with a write, written once for both stores (they only provide atomic primitives).
// Each reproduces a real server, so the sandbox is never more forgiving than the platforms are.

export const DEFAULT_PROFILE: Record<Platform, Profile> = {
  x: 'x',
  mastodon: 'mastodon-modern',
  bluesky: 'bluesky',
  linkedin: 'linkedin',
  threads: 'threads',
  instagram: 'instagram',
  tiktok: 'tiktok',
  facebook: 'facebook',
  youtube: 'youtube',
};

const PLATFORMS: Record<Profile, readonly Platform[]> = {
  'mastodon-modern': ['mastodon'],
  'mastodon-legacy': ['mastodon'],
  'mastodon-nokey': ['mastodon'],
  'mastodon-markdown': ['mastodon'],
  x: ['x'],
  'x-nodedupe': ['x'],
  'x-premium': ['x'],
  linkedin: ['linkedin'],
  threads: ['threads'],
  instagram: ['instagram'],
  // TikTok has no key and no dedupe at all: its own profile is already the weakest.
  tiktok: ['tiktok'],
  // An app TikTok has not audited: only SELF_ONLY posts (init refuses any other privacy for a public creator).
  'tiktok-unaudited': ['tiktok'],
  // Facebook Pages: no key and no dedupe on the feed (Facebook's 506 duplicate refusal is not counted on), unpublished
  // photos attached by id, videos by a resumable session whose bytes are checked and processed after the finish.
  facebook: ['facebook'],
  // YouTube has no key and no dedupe: every session start is a session, every complete session a video.
  youtube: ['youtube'],
  // A private TikTok account: creator_info offers no PUBLIC_TO_EVERYONE and turns Duet and Stitch off; init refuses
  // a level it did not offer (privacy_level_option_mismatch), as TikTok does.
  'tiktok-private': ['tiktok'],
  // A PDS answers a write to an occupied record key one way only, so Bluesky accounts have this profile alone.
  bluesky: ['bluesky'],
  plain: ['x', 'mastodon', 'linkedin', 'threads', 'instagram', 'facebook'],
};

export function profileFits(profile: Profile, platform: Platform): boolean {
  return PLATFORMS[profile].includes(platform);
}

/** The profile an account gets: the one asked for (it must fit the platform), else the platform's default. */
export function resolveProfile(platform: Platform, profile: Profile | undefined): Profile {
  if (!profile) return DEFAULT_PROFILE[platform];
  if (!profileFits(profile, platform)) throw new Error(`Profile ${profile} does not fit a ${platform} account`);
  return profile;
}

/** X refuses identical text on one account within this window (approximately; X does not document it). */
export const X_DUPLICATE_WINDOW_MS = 24 * 3_600_000;
/**
 * LinkedIn refuses identical commentary by one author with 422 DUPLICATE_POST, naming the existing post, and
 * goes on refusing after that post is deleted (the named URN then answers 404). The window is not documented:
 * reports show refusals an hour apart (hourly jobs) and up to 24–48 h after a delete. The sandbox takes the
 * shortest, one hour: a longer refusal would absorb resends the real server may publish.
 */
export const LINKEDIN_DUPLICATE_WINDOW_MS = 3_600_000;
/** Mastodon: `redis.setex(idempotency_key, 3_600, status.id)`, set after the status is created. */
export const MASTODON_KEY_TTL_MS = 3_600_000;
/** Mastodon's `with_redis_lock` default autorelease (15 minutes). */
const MASTODON_LOCK_TTL_MS = 15 * 60_000;
/** mario-redis-lock, as Mastodon uses it: retries every 100 ms for up to 10 s, then RaceConditionError → 503. */
const LOCK_RETRY_MS = 100;
export const DEFAULT_LOCK_WAIT_MS = 10_000;

export type WriteOutcome =
  | CreatePostResult
  /** mastodon-modern: the same key's lock stayed held past the wait (Mastodon answers 503). */
  | { status: 'busy' }
  /** Mastodon: the key points at a status that has since been deleted (`statuses.find` → 404). */
  | { status: 'replayed_missing' };

export type WriteOptions = {
  profile: Profile;
  /** Epoch ms at which the platform creates the post (arrival + processing time); it does so even if the client left. */
  createAt: number;
  lockWaitMs?: number;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** One write as the account's profile treats it. Not abortable: a client that times out does not stop it. */
export async function writeWithProfile(
  store: SandboxStore,
  input: NewSandboxPost,
  options: WriteOptions,
): Promise<WriteOutcome> {
  const key = input.idempotencyKey || null;
  const create = async (): Promise<WriteOutcome> => {
    await sleep(options.createAt - Date.now());
    const linkedin = options.profile === 'linkedin';
    const dedupe = (options.profile === 'x' || options.profile === 'x-premium' || linkedin) && input.kind !== 'dm';
    const since = new Date(Date.now() - (linkedin ? LINKEDIN_DUPLICATE_WINDOW_MS : X_DUPLICATE_WINDOW_MS));
    const post = await store.insertPost({
      ...input,
      refuseDuplicateSince: dedupe ? since : undefined,
      duplicatesIncludeDeleted: linkedin,
    });
    if (post) return { status: 'created', post };
    if (!linkedin) return { status: 'duplicate' };
    // Posts are never removed (deletes are soft), so the copy that caused the refusal is still there to name.
    const duplicateOf = await store.findDuplicatePost({
      accountId: input.account.id,
      text: input.text,
      since,
      includeDeleted: true,
    });
    return { status: 'duplicate', duplicateOf: duplicateOf ?? undefined };
  };
  const replay = async (): Promise<WriteOutcome | null> => {
    const postId = await store.getIdempotentPostId(input.account.id, key!, new Date(Date.now() - MASTODON_KEY_TTL_MS));
    if (!postId) return null;
    const post = await store.getPost(postId);
    return post ? { status: 'replayed', post } : { status: 'replayed_missing' };
  };
  /** Hollo: the key finds a live status of the account from the last hour; a deleted one is no longer found. */
  const replayLive = async (): Promise<WriteOutcome | null> => {
    const outcome = await replay();
    return outcome?.status === 'replayed' ? outcome : null;
  };
  const createAndRemember = async (): Promise<WriteOutcome> => {
    const outcome = await create();
    if (outcome.status === 'created') await store.setIdempotentPostId(input.account.id, key!, outcome.post.id);
    return outcome;
  };

  if (options.profile === 'mastodon-legacy' && key) {
    // Hollo, as measured: check-then-set, no lock (eight concurrent same-key requests made six statuses); the body
    // is not compared (a changed one gets the earlier status, 200); a deleted status's key makes a new status.
    return (await replayLive()) ?? createAndRemember();
  }
  if (options.profile === 'mastodon-modern' && key) {
    // PostStatusService#with_idempotency: the check and the create run under one Redis lock per (account, key).
    const name = `idempotency:lock:status:${input.account.id}:${key}`;
    const token = await acquire(store, name, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
    if (!token) return { status: 'busy' };
    try {
      return (await replay()) ?? (await createAndRemember());
    } finally {
      await store.unlock(name, token);
    }
  }
  // mastodon-nokey, mastodon-markdown (Hollo without a key), X, LinkedIn, plain: the key plays no part.
  return create();
}

async function acquire(store: SandboxStore, name: string, waitMs: number): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const held = await store.tryLock(name, MASTODON_LOCK_TTL_MS);
    if (held) return held;
    if (Date.now() + LOCK_RETRY_MS > deadline) return null;
    await sleep(LOCK_RETRY_MS);
  }
}

export type RecordWriteOutcome =
  | { status: 'created'; post: SandboxPost }
  /** The key holds exactly this record already: the PDS's no-op (answered 200 without a commit). */
  | { status: 'unchanged'; post: SandboxPost }
  /** swapRecord does not match what the key holds (`current` null: it holds nothing). */
  | { status: 'swap_failed'; current: SandboxPost | null }
  /** An overwrite (no swapRecord, or the current CID): a PDS updates the record; the sandbox keeps no versions. */
  | { status: 'update_unsupported'; current: SandboxPost };

/**
 * Bluesky's putRecord as a PDS runs it (packages/pds/src/api/com/atproto/repo/putRecord.ts, and formatCommit in
 * actor-store/repo/transactor.ts): a key already holding the same record (same CID) is a no-op whatever the
 * swap; an empty key is created unless `swapRecord` names a CID; another record there with `swapRecord: null`
 * or another CID is a swap failure. No text dedupe. Not abortable, like every write here.
 */
export async function putRecordWithProfile(
  store: SandboxStore,
  input: NewSandboxPost & { recordKey: string; record: Record<string, unknown> },
  options: {
    createAt: number;
    swapRecord: string | null | undefined;
    cidOf: (record: Record<string, unknown>) => string;
  },
): Promise<RecordWriteOutcome> {
  await sleep(options.createAt - Date.now());
  const cid = options.cidOf(input.record);
  // Taken by another writer between the read and the insert: read again what it wrote (a PDS serialises
  // writes to one repo, so the later write meets the earlier record).
  for (let round = 0; round < 3; round++) {
    const current = await store.getPostByRecordKey(input.account.id, input.recordKey);
    if (current) {
      const currentCid = options.cidOf(current.record ?? {});
      if (currentCid === cid) return { status: 'unchanged', post: current };
      if (options.swapRecord === null || (options.swapRecord !== undefined && options.swapRecord !== currentCid))
        return { status: 'swap_failed', current };
      return { status: 'update_unsupported', current };
    }
    if (typeof options.swapRecord === 'string') return { status: 'swap_failed', current: null };
    const post = await store.insertPost(input);
    if (post) return { status: 'created', post };
  }
  throw new Error(`Record key ${input.recordKey} kept changing hands`);
}

import { z } from 'zod';
import { callBudget, type CallBudget } from '../call-budget';
import { notCalled, readMedia } from '../media-step';
import { rejectedInput, withTiming } from '../publish-result';
import type { Classification, PublishInput, PublishMedia, PublishResult, RawOutcome } from '../types';
import type { CreatorInfo, TiktokApi, VideoSource } from './api';
import { classifyTiktok } from './classifier';
import { tiktokOptionsFields } from './options';
import { settlePublish } from './settle';

/** The post's options as stored; any privacy level is held against the creator's own list (refuseByCreator). */
const PUBLISHED_OPTIONS = tiktokOptionsFields.extend({ privacy_level: z.string().optional() });

/** Below this much budget a step is not started (our own timeout would make it ambiguous for nothing). */
const MIN_STEP_MS = 200;
/** TikTok's chunk rules (Media Transfer Guide): a video under 5 MB goes whole; chunks of 5–64 MB, the last up to 128 MB. */
const CHUNK_BYTES = 10 * 1024 * 1024;
const WHOLE_UP_TO_BYTES = 64 * 1024 * 1024;
const TIKTOK_VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm']);

/**
 * One attempt (docs/networks.md#tiktok). TikTok has no idempotency: every init makes a publish, and a publish becomes
 * a post by itself. So: creator_info first (only what the creator allows is used); init once; its publish_id kept on
 * the delivery (fenced by the claim) before anything else; then the status is the evidence. A kept publish_id is
 * never initialised again: a later attempt only reads its status.
 */
export async function publishTiktok(api: TiktokApi, input: PublishInput): Promise<PublishResult> {
  const startedAt = new Date();
  const done = (c: Classification, raw: RawOutcome) => withTiming(c, raw, startedAt);
  if (input.kind !== 'post')
    return rejectedInput('TikTok takes posts only (no replies or direct messages).', startedAt);
  const budget = callBudget(input.timeoutMs, input.signal);
  const kept = typeof input.state?.publishId === 'string' ? input.state.publishId : null;
  if (kept) return done(...(await settlePublish(api, kept, budget, { username: null, fresh: false })));

  const video = input.media?.length === 1 ? input.media[0]! : null;
  if (!video || !TIKTOK_VIDEO_TYPES.has(video.mimeType))
    return rejectedInput('A TikTok post is one video (MP4, MOV or WebM).', startedAt);
  // Checked when the post was made; parsed again here, so a stored value that no longer fits is refused, not guessed
  // (a missing privacy level is refused below, naming what the creator allows).
  const parsed = PUBLISHED_OPTIONS.safeParse(input.options ?? {});
  if (!parsed.success)
    return rejectedInput(
      `TikTok’s options for this post do not fit (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}); nothing was sent.`,
      startedAt,
    );
  const options = parsed.data;
  const inbox = options.post_mode === 'inbox';

  const creator = await api.creatorInfo(budget.options());
  if (!creator.ok) return done(creatorInfoUnreadable(classifyTiktok(creator.raw)), creator.raw);
  const refusal = refuseByCreator(creator.info, video, options.privacy_level, inbox);
  if (refusal) return done(refusal, creator.raw);
  const privacyLevel = inbox ? null : options.privacy_level!;

  const source = await videoSource(video);
  if (!source.ok) return done(source.classification, source.raw);
  if (budget.left() < MIN_STEP_MS) return done(noTimeLeft(), notCalled('No time left before init'));
  const init = {
    mode: inbox ? 'inbox' : 'direct',
    source: source.source.source,
    privacyLevel,
    // Only a direct, public post is ever listed (video.list shows public videos): the one case a read may find it.
    listed: !inbox && privacyLevel === 'PUBLIC_TO_EVERYONE',
  };
  const raw = await api.init(
    {
      post: inbox
        ? undefined
        : {
            title: input.text,
            privacyLevel: privacyLevel!,
            // Only what the creator allows: an interaction they turned off stays off.
            disableComment: creator.info.commentDisabled || options.disable_comment === true,
            disableDuet: creator.info.duetDisabled || options.disable_duet === true,
            disableStitch: creator.info.stitchDisabled || options.disable_stitch === true,
          },
      source: source.source,
    },
    budget.options(),
  );
  const made = classifyTiktok(raw);
  if (made.outcome !== 'sent') return done(initNotMade(made, init), raw);
  const publishId = made.externalId!;
  const uploadUrl = raw.type === 'response' ? uploadUrlOf(raw.body) : undefined;

  // Kept before anything else: every later attempt and the reconciler read this publish, never init again.
  const saved = input.saveState
    ? await input.saveState({ publishId, ...init, initAt: new Date().toISOString() }).catch(() => false)
    : true;
  if (!saved) return done(claimLost(publishId, source.source.source), raw);

  if (source.source.source === 'FILE_UPLOAD') {
    if (!uploadUrl)
      return done(
        {
          outcome: 'failed',
          rule: 'tiktok-no-upload-url',
          reason: 'TikTok accepted a file upload but named no upload URL; nothing was sent.',
          evidence: { publishId },
        },
        raw,
      );
    const uploaded = await uploadChunks(api, uploadUrl, source, video.mimeType, budget, input, publishId);
    if (uploaded) return done(uploaded.classification, uploaded.raw);
  }
  return done(...(await settlePublish(api, publishId, budget, { username: creator.info.username, fresh: true })));
}

/** What the creator allows decides (creator_info): a privacy level of theirs, a video no longer than their maximum. */
function refuseByCreator(
  info: CreatorInfo,
  video: PublishMedia,
  privacyLevel: string | undefined,
  inbox: boolean,
): Classification | null {
  const levels = info.privacyLevels.join(', ') || 'none';
  if (!inbox && !privacyLevel)
    return {
      outcome: 'failed',
      rule: 'tiktok-privacy-level-missing',
      reason: `TikTok needs the post’s privacy level chosen by you (this creator allows: ${levels}); nothing was sent.`,
    };
  if (!inbox && !info.privacyLevels.includes(privacyLevel!))
    return {
      outcome: 'failed',
      rule: 'tiktok-privacy-level-not-allowed',
      reason: `This TikTok creator cannot post as ${privacyLevel} now (allowed: ${levels}); nothing was sent.`,
      evidence: { privacyLevels: info.privacyLevels },
    };
  if (info.maxDurationSec !== null && video.durationMs !== undefined && video.durationMs > info.maxDurationSec * 1000)
    return {
      outcome: 'failed',
      rule: 'tiktok-video-too-long',
      reason: `This TikTok creator may post videos up to ${info.maxDurationSec} s; this one is ${Math.ceil(video.durationMs / 1000)} s. Nothing was sent.`,
    };
  return null;
}

type Source =
  | { ok: true; source: VideoSource; bytes?: Uint8Array }
  | { ok: false; classification: Classification; raw: RawOutcome };

/** TikTok pulls the video from this app's signed URL when there is one; otherwise the bytes go up in chunks. */
async function videoSource(video: PublishMedia): Promise<Source> {
  if (video.publicUrl) return { ok: true, source: { source: 'PULL_FROM_URL', videoUrl: video.publicUrl() } };
  const read = await readMedia([video]);
  if (!read.ok) return read;
  const bytes = read.bytes[0]!;
  const size = bytes.length;
  const chunkSize = size <= WHOLE_UP_TO_BYTES ? size : CHUNK_BYTES;
  // The last chunk takes the remainder: total = floor(size / chunk).
  const totalChunkCount = Math.max(1, Math.floor(size / chunkSize));
  return { ok: true, source: { source: 'FILE_UPLOAD', videoSize: size, chunkSize, totalChunkCount }, bytes };
}

/**
 * The chunks, in order. The publish becomes a post only when its last byte arrives, so a chunk short of the last one
 * that fails (or goes unanswered) leaves a publish that can never complete: it is dropped from the delivery and the next
 * attempt starts anew. An unknown answer to the last chunk may have completed it: ambiguous, the status settles it.
 */
async function uploadChunks(
  api: TiktokApi,
  uploadUrl: string,
  source: Extract<Source, { ok: true }>,
  contentType: string,
  budget: CallBudget,
  input: PublishInput,
  publishId: string,
): Promise<{ classification: Classification; raw: RawOutcome } | null> {
  const bytes = source.bytes!;
  const { chunkSize, totalChunkCount } = source.source as Extract<VideoSource, { source: 'FILE_UPLOAD' }>;
  for (let i = 0; i < totalChunkCount; i++) {
    const last = i === totalChunkCount - 1;
    const first = i * chunkSize;
    const data = bytes.subarray(first, last ? bytes.length : first + chunkSize);
    const raw = await api.uploadChunk(uploadUrl, { data, first, total: bytes.length, contentType }, budget.options());
    const ok = raw.type === 'response' && (raw.status === 201 || raw.status === 206);
    if (ok) continue;
    const c = classifyTiktok(raw);
    if (last && c.outcome === 'ambiguous')
      return {
        classification: {
          ...c,
          rule: 'tiktok-upload-unknown',
          reason: `The video’s last chunk had no clear answer (${c.reason}); TikTok may be publishing it: its status settles it, never a second init.`,
          evidence: { ...c.evidence, publishId },
        },
        raw,
      };
    const forgotten = input.saveState ? await input.saveState({}).catch(() => false) : true;
    return {
      classification: {
        outcome: forgotten ? (c.outcome === 'failed' ? 'failed' : 'not_sent') : 'ambiguous',
        rule: 'tiktok-upload-incomplete',
        httpStatus: c.httpStatus,
        ...(c.retryAt ? { retryAt: c.retryAt } : {}),
        reason: `The video upload stopped at chunk ${i + 1} of ${totalChunkCount} (${c.reason}); a publish without all its bytes is never posted.`,
        evidence: { ...c.evidence, publishId, chunk: i + 1, of: totalChunkCount },
      },
      raw,
    };
  }
  return null;
}

function uploadUrlOf(body: unknown): string | undefined {
  const data = (body as { data?: { upload_url?: unknown } } | null)?.data;
  return typeof data?.upload_url === 'string' ? data.upload_url : undefined;
}

/**
 * An init without a publish_id. A PULL_FROM_URL init that TikTok may have carried out makes the post by itself: it is
 * ambiguous and never initialised again (the reconciler decides; see client.ts readBack). A FILE_UPLOAD init is not a
 * post: without its upload URL nobody can send the bytes, so an unknown answer there published nothing.
 */
function initNotMade(c: Classification, init: Record<string, unknown>): Classification {
  const evidence = { ...c.evidence, ...init, initRule: c.rule };
  if (c.outcome !== 'ambiguous') return { ...c, evidence };
  if (init.source === 'FILE_UPLOAD')
    return {
      ...c,
      outcome: 'not_sent',
      rule: 'tiktok-upload-init-unknown',
      reason: `Starting the file upload had no clear answer (${c.reason}); without its upload URL no byte was sent, so nothing can be published.`,
      evidence,
    };
  return {
    ...c,
    rule: 'tiktok-init-unknown',
    reason: `TikTok’s init had no clear answer (${c.reason}): it may be fetching and posting the video. It is never initialised again; the account is checked.`,
    evidence,
  };
}

function claimLost(publishId: string, source: string): Classification {
  if (source === 'FILE_UPLOAD')
    return {
      outcome: 'not_sent',
      rule: 'tiktok-claim-lost',
      reason: 'The claim on this delivery was lost before the upload, so no byte was sent and nothing is published.',
      evidence: { publishId, unsavedPublish: true },
    };
  // TikTok is already fetching the video: this publish will become a post whatever we do.
  return {
    outcome: 'ambiguous',
    rule: 'tiktok-claim-lost-after-init',
    reason: 'The claim on this delivery was lost right after TikTok accepted the video; its status settles it.',
    evidence: { publishId, unsavedPublish: true },
  };
}

/** creator_info is a read: only a definite refusal (a revoked token, a missing scope) fails the delivery. */
function creatorInfoUnreadable(c: Classification): Classification {
  if (c.outcome === 'failed' || c.outcome === 'not_sent') return c;
  return {
    ...c,
    outcome: 'not_sent',
    rule: 'tiktok-creator-info-unreadable',
    reason: `TikTok’s creator info could not be read (${c.reason}); nothing was published.`,
  };
}

function noTimeLeft(): Classification {
  return {
    outcome: 'not_sent',
    rule: 'tiktok-no-time-left',
    reason: 'The attempt’s time ran out before the init, which was not started; nothing was published.',
  };
}

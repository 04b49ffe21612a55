import { callBudget, type CallBudget } from '../call-budget';
import { notCalled } from '../media-step';
import { rejectedInput, withTiming } from '../publish-result';
import type { Classification, ProviderState, PublishInput, PublishMedia, PublishResult, RawOutcome } from '../types';
import { sessionStateOf, type SessionState, type YoutubeApi } from './api';
import { classifyYoutube } from './classifier';
import { youtubeVideoSettings } from './settings';

/** Chunks other than the last are multiples of 256 KiB (the resumable upload guide); 8 MiB by default. */
export const CHUNK_MULTIPLE = 256 * 1024;
export const DEFAULT_CHUNK_BYTES = 32 * CHUNK_MULTIPLE;
/** Below this much budget no step is started (our own timeout would cut it for nothing). */
const MIN_STEP_MS = 300;
/** Interruptions one attempt recovers from by asking the session; more, and the next attempt goes on. */
const MAX_RESYNCS = 3;
const YOUTUBE_VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);

type Step = [Classification, RawOutcome];

/**
 * One attempt (docs/networks.md#youtube). YouTube has no idempotency: every videos.insert starts a session, and a
 * session with all its bytes is a video. So a delivery starts one session and keeps its URI (fenced by the claim)
 * before the first byte; every later attempt asks that session how far it got and goes on from there. An upload that
 * stops before its last byte is `not_sent` (a session without all its bytes is never a video); an unknown answer to
 * the last chunk is settled by asking the session, else it is `ambiguous` with the session kept for the reconciler.
 */
export async function publishYoutube(
  api: YoutubeApi,
  input: PublishInput,
  options: { chunkBytes: number },
): Promise<PublishResult> {
  const startedAt = new Date();
  const done = ([c, raw]: Step) => withTiming(c, raw, startedAt);
  if (input.kind !== 'post')
    return rejectedInput('YouTube takes videos only (no replies or direct messages).', startedAt);
  const video = input.media?.length === 1 ? input.media[0]! : null;
  if (!video || !YOUTUBE_VIDEO_TYPES.has(video.mimeType))
    return rejectedInput('A YouTube post is one video (MP4 or MOV).', startedAt);
  const budget = callBudget(input.timeoutMs, input.signal);
  const short = input.format === 'short';
  const save = async (state: ProviderState) =>
    input.saveState ? await input.saveState(state).catch(() => false) : true;

  let state: ProviderState = input.state ?? {};
  let offset = 0;
  const kept = typeof state.sessionUri === 'string' ? state.sessionUri : null;
  if (kept) {
    if (budget.left() < MIN_STEP_MS) return done(noTimeLeft('asking the session how far it got'));
    const raw = await api.querySession(kept, video.sizeBytes, budget.options());
    const session = sessionStateOf(raw);
    if (session.kind === 'complete')
      return done(await withThumbnail(api, [completed(session, short), raw], video, budget));
    if (session.kind === 'gone') return done(await sessionGone(state, save, raw));
    if (session.kind === 'unknown') return done([queryUnreadable(classifyYoutube(raw), kept), raw]);
    offset = session.received;
  } else {
    if (budget.left() < MIN_STEP_MS) return done(noTimeLeft('starting the upload session'));
    const raw = await api.startSession(
      youtubeVideoSettings(input),
      { sizeBytes: video.sizeBytes, contentType: video.mimeType },
      budget.options(),
    );
    const location = raw.type === 'response' && raw.status === 200 ? raw.headers.location : undefined;
    if (!location) return done([sessionNotStarted(classifyYoutube(raw)), raw]);
    state = { sessionUri: location, sizeBytes: video.sizeBytes, sessionAt: new Date().toISOString() };
    // Kept before the first byte: every later attempt and the reconciler ask this session, never start another.
    if (!(await save(state))) return done([claimLost(location), raw]);
  }
  const step = await uploadFrom(api, state, offset, video, budget, save, { ...options, short });
  return done(await withThumbnail(api, step, video, budget));
}

/**
 * The video's cover frame as its custom thumbnail (thumbnails.set), once the video exists. It is no part of the
 * post: whatever happens to it, the outcome stays `sent` (the evidence says how it went), and it is never retried.
 */
async function withThumbnail(api: YoutubeApi, [c, raw]: Step, video: PublishMedia, budget: CallBudget): Promise<Step> {
  if (c.outcome !== 'sent' || !c.externalId || !video.readCover) return [c, raw];
  if (budget.left() < MIN_STEP_MS) return [{ ...c, evidence: { ...c.evidence, thumbnail: 'no time left' } }, raw];
  let thumbnail: string;
  try {
    const answer = await api.setThumbnail(c.externalId, await video.readCover(), budget.options());
    thumbnail =
      answer.type === 'response' && answer.status === 200 ? 'set' : `not set: ${classifyYoutube(answer).reason}`;
  } catch (error) {
    thumbnail = `not set: ${(error as Error).message}`;
  }
  return [{ ...c, evidence: { ...c.evidence, thumbnail } }, raw];
}

/** The chunks from `offset`, each read from the storage as it goes (a video never sits in memory whole). */
async function uploadFrom(
  api: YoutubeApi,
  state: ProviderState,
  start: number,
  video: PublishMedia,
  budget: CallBudget,
  save: (state: ProviderState) => Promise<boolean>,
  options: { chunkBytes: number; short: boolean },
): Promise<Step> {
  const sessionUri = state.sessionUri as string;
  const total = video.sizeBytes;
  let offset = start;
  let resyncs = 0;
  let last: RawOutcome = notCalled('No chunk was sent');
  while (offset < total) {
    if (budget.left() < MIN_STEP_MS) return [paused(sessionUri, offset, total), last];
    const end = Math.min(total, offset + options.chunkBytes);
    const final = end === total;
    let data: Uint8Array;
    try {
      data = await readRange(video, offset, end - 1);
    } catch (error) {
      return [mediaUnreadable((error as Error).message), notCalled('The stored video could not be read')];
    }
    // The last chunk may make the video: that it went out is kept first, so an expired session later is never
    // taken for proof that no video was made.
    if (final && !state.finalChunkAt) {
      state = { ...state, finalChunkAt: new Date().toISOString() };
      if (!(await save(state))) return [claimLost(sessionUri), last];
    }
    last = await api.putChunk(
      sessionUri,
      { data, first: offset, total, contentType: video.mimeType },
      budget.options(),
    );
    let session: SessionState = sessionStateOf(last);
    if (session.kind === 'unknown' && resyncs < MAX_RESYNCS && budget.left() >= MIN_STEP_MS) {
      // Interrupted (a reset, a timeout, a 5xx): the session says what it kept, and the upload goes on from there.
      resyncs++;
      const asked = await api.querySession(sessionUri, total, budget.options());
      const answer = sessionStateOf(asked);
      if (answer.kind !== 'unknown') {
        session = answer;
        last = asked;
      }
    }
    if (session.kind === 'complete') return [completed(session, options.short), last];
    if (session.kind === 'gone') return sessionGone(state, save, last);
    if (session.kind === 'unknown') {
      const c = classifyYoutube(last);
      return [final ? finalUnknown(c, sessionUri, offset, total) : interrupted(c, sessionUri, offset, total), last];
    }
    if (session.received >= total) return [finalUnknown(finalising(), sessionUri, total, total), last];
    offset = session.received;
  }
  // A 308 that took every byte without naming the video: YouTube is still finishing the upload.
  return [finalUnknown(finalising(), sessionUri, total, total), last];
}

/** One inclusive byte range of the stored video, read from its stream (at most one chunk in memory). */
async function readRange(video: PublishMedia, start: number, end: number): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of await video.stream({ start, end })) parts.push(Buffer.from(part as Uint8Array));
  const bytes = Buffer.concat(parts);
  if (bytes.length !== end - start + 1) throw new Error(`read ${bytes.length} of ${end - start + 1} bytes`);
  return bytes;
}

/** The session's video: sent, or failed when YouTube could not process the file. */
export function completed(session: Extract<SessionState, { kind: 'complete' }>, short: boolean): Classification {
  if (session.uploadStatus === 'failed' || session.uploadStatus === 'rejected')
    return {
      outcome: 'failed',
      rule: 'youtube-upload-failed',
      externalId: session.videoId,
      reason: `YouTube took the upload but could not make a video of it (${session.failureReason ?? session.uploadStatus}); nothing was published.`,
      evidence: { videoId: session.videoId, uploadStatus: session.uploadStatus, failureReason: session.failureReason },
    };
  return {
    outcome: 'sent',
    rule: 'youtube-video-uploaded',
    externalId: session.videoId,
    url: short
      ? `https://www.youtube.com/shorts/${session.videoId}`
      : `https://www.youtube.com/watch?v=${session.videoId}`,
    reason:
      session.uploadStatus === 'processed'
        ? 'Uploaded to YouTube and processed.'
        : 'Uploaded to YouTube; YouTube is processing it.',
    evidence: { videoId: session.videoId, uploadStatus: session.uploadStatus },
  };
}

/**
 * The session expired (404). Before its last chunk went out it never became a video: it is dropped and the next
 * attempt starts a new one. After the last chunk it may have: ambiguous, the channel's uploads settle it.
 */
async function sessionGone(
  state: ProviderState,
  save: (state: ProviderState) => Promise<boolean>,
  raw: RawOutcome,
): Promise<Step> {
  const evidence = { sessionUri: state.sessionUri ?? null, sessionGone: true };
  if (state.finalChunkAt)
    return [
      {
        outcome: 'ambiguous',
        rule: 'youtube-session-gone-after-final',
        reason:
          'The upload session expired after its last chunk was sent: the video may exist. The channel’s uploads settle it, never a second upload.',
        evidence: { ...evidence, finalChunkAt: state.finalChunkAt },
      },
      raw,
    ];
  const dropped = await save({});
  return [
    {
      outcome: dropped ? 'not_sent' : 'ambiguous',
      rule: 'youtube-session-expired',
      reason: 'The upload session expired before the video was complete, so no video was made; a new session starts.',
      evidence,
    },
    raw,
  ];
}

/** The session start failed or its answer was lost: no byte can follow without its URI, so nothing can publish. */
function sessionNotStarted(c: Classification): Classification {
  if (c.outcome === 'failed' || c.outcome === 'not_sent') return { ...c, evidence: { ...c.evidence, step: 'start' } };
  return {
    outcome: 'not_sent',
    rule: 'youtube-session-not-started',
    httpStatus: c.httpStatus,
    ...(c.retryAt ? { retryAt: c.retryAt } : {}),
    reason: `Starting the upload session had no clear answer (${c.reason}); without its session URI no byte can be sent, so nothing was published.`,
    evidence: { ...c.evidence, startRule: c.rule },
  };
}

function queryUnreadable(c: Classification, sessionUri: string): Classification {
  if (c.outcome === 'failed') return { ...c, evidence: { ...c.evidence, sessionUri } };
  return {
    outcome: 'not_sent',
    rule: 'youtube-session-unreadable',
    httpStatus: c.httpStatus,
    ...(c.retryAt ? { retryAt: c.retryAt } : {}),
    reason: `The upload session could not be asked how far it got (${c.reason}); no byte was sent in this attempt.`,
    evidence: { ...c.evidence, sessionUri, queryRule: c.rule },
  };
}

function interrupted(c: Classification, sessionUri: string, received: number, total: number): Classification {
  return {
    outcome: c.outcome === 'failed' ? 'failed' : 'not_sent',
    rule: 'youtube-upload-interrupted',
    httpStatus: c.httpStatus,
    ...(c.retryAt ? { retryAt: c.retryAt } : {}),
    reason: `The upload stopped before its last chunk (${c.reason}); a session without all its bytes is never a video. The next attempt goes on from where the session got.`,
    evidence: { ...c.evidence, sessionUri, received, total, chunkRule: c.rule },
  };
}

function paused(sessionUri: string, received: number, total: number): Classification {
  return {
    outcome: 'not_sent',
    rule: 'youtube-upload-paused',
    retryAt: new Date(),
    reason: `The attempt’s time ran out after ${received} of ${total} bytes; the next attempt goes on from there in the same session.`,
    evidence: { sessionUri, received, total },
  };
}

function finalUnknown(c: Classification, sessionUri: string, received: number, total: number): Classification {
  return {
    outcome: 'ambiguous',
    rule: 'youtube-final-chunk-unknown',
    httpStatus: c.httpStatus,
    reason: `The last chunk had no clear answer (${c.reason}); the video may exist. The session settles it, then the channel’s uploads — never a second upload.`,
    evidence: { ...c.evidence, sessionUri, received, total },
  };
}

const finalising = (): Classification => ({
  outcome: 'ambiguous',
  rule: 'youtube-finalising',
  reason: 'every byte arrived and YouTube is still finishing the upload',
});

function claimLost(sessionUri: string): Classification {
  return {
    outcome: 'not_sent',
    rule: 'youtube-claim-lost',
    reason: 'The claim on this delivery was lost before the next byte was sent, so nothing was published.',
    evidence: { sessionUri, unsavedSession: true },
  };
}

function noTimeLeft(step: string): Step {
  return [
    {
      outcome: 'not_sent',
      rule: 'youtube-no-time-left',
      reason: `The attempt’s time ran out before ${step}; nothing was sent.`,
    },
    notCalled('No time left'),
  ];
}

function mediaUnreadable(message: string): Classification {
  return {
    outcome: 'failed',
    rule: 'media-unreadable',
    reason: `The video could not be read from the media storage (${message}); nothing more was sent.`,
  };
}

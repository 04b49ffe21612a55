import type { CallBudget } from '../call-budget';
import { notCalled } from '../media-step';
import { withTiming } from '../publish-result';
import type { Classification, ProviderState, PublishInput, PublishMedia, PublishResult, RawOutcome } from '../types';
import type { Graph } from '../meta-graph/graph';
import { phaseAnswer, readVideo, videoBase } from './video';

/** Below this much budget a step is not started (our own timeout would make it ambiguous for nothing). */
const MIN_STEP_MS = 200;
/** Facebook's chunks are what its answer asks for (start_offset…end_offset); this caps one request of ours. */
const MAX_CHUNK_BYTES = 8 * 1024 * 1024;

type Session = { videoId: string; uploadSessionId: string };

/**
 * One attempt of a video post through Facebook's resumable upload (developers.facebook.com/docs/video-api/guides/
 * publishing; POST /{page-id}/videos with `upload_phase` start → transfer… → finish). The session (video id and upload
 * session id) is kept on the delivery before any byte is sent, and every later attempt reads the video's status
 * first: uploading → the transfer resumes where Facebook's bytes end; uploaded → finish (the first never took
 * effect); processing or published → nothing is sent again. A start, a chunk, is not a post: an unknown answer there
 * is `not_sent`. An unknown answer to `finish` is `ambiguous`, settled by the status, never by a second upload.
 */
export async function publishVideo(
  graph: Graph,
  input: PublishInput,
  video: PublishMedia,
  budget: CallBudget,
  startedAt: Date,
): Promise<PublishResult> {
  const done = (c: Classification, raw: RawOutcome) => withTiming(c, raw, startedAt);
  const base = videoBase(graph);
  let session = keptSession(input.state);
  let offset = 0;
  let lastRaw: RawOutcome = notCalled('No request was sent');

  if (session) {
    const read = await readVideo(graph, session.videoId, budget.options());
    if (read.kind === 'unreadable') {
      const c = read.error.classification;
      // A read publishes nothing: only a definite refusal (a revoked token) fails the delivery.
      if (c.outcome === 'failed') return done({ ...c, evidence: { ...c.evidence, ...session } }, lastRaw);
      return done(
        {
          outcome: 'not_sent',
          rule: 'facebook-video-status-unreadable',
          retryAt: c.retryAt ?? new Date(Date.now() + 30_000),
          reason: `The video’s status could not be read (${c.reason}); nothing was sent.`,
          evidence: { ...session },
        },
        lastRaw,
      );
    }
    const { stage } = read;
    switch (stage.stage) {
      case 'published':
        if (!stage.postId) return done(processing(session, 'published, its post not named yet'), lastRaw);
        return done(
          {
            outcome: 'sent',
            rule: 'facebook-video-published',
            externalId: stage.postId,
            ...(stage.url ? { url: stage.url } : {}),
            reason:
              'The video was published by an earlier attempt (its status reads published); nothing was sent again.',
            evidence: { ...session, stage: 'published' },
          },
          lastRaw,
        );
      case 'processing':
        return done(processing(session, 'processing'), lastRaw);
      case 'error':
        return done(
          {
            outcome: 'failed',
            rule: 'facebook-video-error',
            reason: `Facebook could not process the video (${stage.message}); nothing was published.`,
            evidence: { ...session, stage: 'error', error: stage.message },
          },
          lastRaw,
        );
      case 'expired':
        // An upload session that never finished is no post (a finished one reads processing, published or error).
        session = null;
        break;
      case 'uploaded':
        offset = video.sizeBytes;
        break;
      case 'uploading':
        offset = stage.bytesTransferred;
        break;
    }
  }

  if (!session) {
    if (budget.left() < MIN_STEP_MS) return done(noTimeLeft(), lastRaw);
    const raw = await graph.postEdge(
      'videos',
      { form: { upload_phase: 'start', file_size: String(video.sizeBytes) } },
      { ...budget.options(), base },
    );
    const answer = phaseAnswer(raw);
    const videoId = answer && String(answer.video_id ?? '');
    const uploadSessionId = answer && String(answer.upload_session_id ?? '');
    if (!videoId || !uploadSessionId) return done(notStarted(graph.classify(raw)), raw);
    session = { videoId, uploadSessionId };
    lastRaw = raw;
    // Kept before any byte is sent; a lost claim stops here (another worker may own the delivery now).
    const saved = input.saveState
      ? await input.saveState({ ...session, videoCreatedAt: new Date().toISOString() }).catch(() => false)
      : true;
    if (!saved)
      return done(
        {
          outcome: 'not_sent',
          rule: 'facebook-claim-lost',
          reason:
            'The claim on this delivery was lost before the upload, so no byte was sent and nothing is published.',
          evidence: { ...session, unsavedSession: true },
        },
        raw,
      );
    offset = Number(answer!.start_offset) || 0;
  }

  while (offset < video.sizeBytes) {
    if (budget.left() < MIN_STEP_MS) return done({ ...noTimeLeft(), evidence: { ...session, offset } }, lastRaw);
    const end = Math.min(video.sizeBytes, offset + MAX_CHUNK_BYTES);
    let data: Uint8Array;
    try {
      data = await readRange(video, offset, end);
    } catch (error) {
      const message = (error as Error).message;
      return done(
        {
          outcome: 'failed',
          rule: 'media-unreadable',
          reason: `The video could not be read from the media storage (${message}); nothing was published.`,
          evidence: { ...session },
        },
        notCalled(message),
      );
    }
    const raw = await graph.postEdge(
      'videos',
      {
        multipart: {
          fields: {
            upload_phase: 'transfer',
            upload_session_id: session.uploadSessionId,
            start_offset: String(offset),
          },
          files: [{ name: 'video_file_chunk', filename: 'chunk', contentType: 'application/octet-stream', data }],
        },
      },
      { ...budget.options(), base },
    );
    lastRaw = raw;
    const answer = phaseAnswer(raw);
    const next = Number(answer?.start_offset);
    if (!answer || !Number.isInteger(next) || next <= offset) {
      const c = graph.classify(raw);
      return done(
        {
          outcome: c.outcome === 'failed' ? 'failed' : 'not_sent',
          rule: c.outcome === 'failed' ? c.rule : 'facebook-video-transfer-incomplete',
          httpStatus: c.httpStatus,
          ...(c.retryAt ? { retryAt: c.retryAt } : {}),
          reason: `The video upload stopped at byte ${offset} of ${video.sizeBytes} (${c.reason}); a video without all its bytes is never published, and the next attempt resumes the same upload.`,
          evidence: { ...c.evidence, ...session, offset },
        },
        raw,
      );
    }
    offset = next;
  }

  if (budget.left() < MIN_STEP_MS) return done({ ...noTimeLeft(), evidence: { ...session } }, lastRaw);
  const raw = await graph.postEdge(
    'videos',
    { form: { upload_phase: 'finish', upload_session_id: session.uploadSessionId, description: input.text } },
    { ...budget.options(), base },
  );
  if (phaseAnswer(raw)?.success !== true) {
    const c = graph.classify(raw);
    if (c.outcome === 'failed' || c.outcome === 'not_sent')
      return done({ ...c, evidence: { ...c.evidence, ...session, step: 'finish' } }, raw);
    return done(
      {
        ...c,
        outcome: 'ambiguous',
        rule: 'facebook-video-finish-unknown',
        reason: `Finishing the video upload had no clear answer (${c.reason}): Facebook may be publishing it. Its status settles it, never a second upload.`,
        evidence: { ...c.evidence, ...session, step: 'finish' },
      },
      raw,
    );
  }
  if (budget.left() >= MIN_STEP_MS) {
    const read = await readVideo(graph, session.videoId, budget.options());
    if (read.kind === 'stage' && read.stage.stage === 'published' && read.stage.postId)
      return done(
        {
          outcome: 'sent',
          rule: 'facebook-video-published',
          externalId: read.stage.postId,
          ...(read.stage.url ? { url: read.stage.url } : {}),
          reason: 'Published; Facebook processed the video and named its post.',
          evidence: { ...session, stage: 'published' },
        },
        raw,
      );
  }
  return done(processing(session, 'processing after the finish'), raw);
}

/** The session an earlier attempt kept on the delivery. */
function keptSession(state: ProviderState | undefined): Session | null {
  const videoId = state?.videoId;
  const uploadSessionId = state?.uploadSessionId;
  return typeof videoId === 'string' && typeof uploadSessionId === 'string' ? { videoId, uploadSessionId } : null;
}

async function readRange(video: PublishMedia, start: number, end: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await video.stream({ start, end: end - 1 })) chunks.push(Buffer.from(chunk as Buffer));
  const data = Buffer.concat(chunks);
  if (data.length !== end - start) throw new Error(`read ${data.length} bytes of ${end - start}`);
  return new Uint8Array(data);
}

/** Finished and not yet a post: it publishes by itself, so this attempt ends ambiguous and the status is read again. */
function processing(session: Session, what: string): Classification {
  return {
    outcome: 'ambiguous',
    rule: 'facebook-video-processing',
    reason: `The video is ${what}: it publishes by itself, so nothing is sent again; its status is read until it is out.`,
    evidence: { ...session, stage: 'processing' },
  };
}

/** A start without its session ids: no byte can follow, so nothing can be published. */
function notStarted(c: Classification): Classification {
  if (c.outcome === 'failed' || c.outcome === 'not_sent') return { ...c, evidence: { ...c.evidence, step: 'start' } };
  return {
    ...c,
    outcome: 'not_sent',
    rule: 'facebook-video-start-unknown',
    reason: `Starting the video upload had no clear answer (${c.reason}); without its session no byte was sent, so nothing can be published.`,
    evidence: { ...c.evidence, step: 'start' },
  };
}

function noTimeLeft(): Classification {
  return {
    outcome: 'not_sent',
    rule: 'facebook-no-time-left',
    reason: 'The attempt’s time ran out before the next step, which was not started; nothing was published.',
  };
}

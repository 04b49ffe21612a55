import { asRecord, asString } from '../read';
import { ProviderReadError, type RawOutcome } from '../types';
import type { CallOptions, Graph } from '../meta-graph/graph';

// A Facebook video's life as its status says it (developers.facebook.com/docs/graph-api/reference/video-status):
// `video_status` and its three phases, `uploading_phase` (with `bytes_transferred`), `processing_phase` and
// `publishing_phase` (`publish_status`, `publish_time`). The status is the evidence for every unknown outcome of the
// resumable upload (start → transfer… → finish): one upload session is one video, and never a second upload.

export type VideoStage =
  /** Bytes still missing: a later attempt resumes the transfer from `bytesTransferred`. */
  | { stage: 'uploading'; bytesTransferred: number }
  /** Every byte arrived, nothing is processing or publishing: the finish never took effect. */
  | { stage: 'uploaded' }
  /** Finished and being processed or published: it publishes by itself, nothing may be sent again. */
  | { stage: 'processing' }
  | { stage: 'published'; postId: string | null; url: string | null; publishedAt: Date | null }
  | { stage: 'error'; message: string }
  /** An upload session never finished and now dead (a finished one reads processing, published or error). */
  | { stage: 'expired' };

/** The fields read for a video (its status, the post it became and that post's link). */
export const VIDEO_FIELDS = 'status,post_id,permalink_url';

/** Where Facebook takes video uploads: graph-video.facebook.com beside graph.facebook.com; any other base (the sandbox) serves both. */
export const videoBase = (graph: Graph) =>
  /^https:\/\/graph\.facebook\.com$/i.test(graph.base) ? 'https://graph-video.facebook.com' : undefined;

export function videoStage(body: Record<string, unknown>): VideoStage {
  const status = asRecord(body.status);
  const phase = (name: string) => asRecord(status[name]);
  const phaseStatus = (name: string) => asString(phase(name).status) ?? 'not_started';
  const videoStatus = asString(status.video_status) ?? '';
  const failed = ['uploading_phase', 'processing_phase', 'publishing_phase'].find((p) => phaseStatus(p) === 'error');
  if (videoStatus === 'error' || videoStatus === 'upload_failed' || failed) {
    const errors = phase(failed ?? 'processing_phase').errors;
    const first = asRecord(Array.isArray(errors) ? errors[0] : undefined);
    return { stage: 'error', message: asString(first.message) ?? videoStatus };
  }
  if (videoStatus === 'expired') return { stage: 'expired' };
  const publishing = phase('publishing_phase');
  if (phaseStatus('publishing_phase') === 'complete' && asString(publishing.publish_status) === 'published') {
    const time = asString(publishing.publish_time);
    return {
      stage: 'published',
      postId: asString(body.post_id) ?? null,
      url: asString(body.permalink_url) ?? null,
      publishedAt: time ? new Date(time.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : null,
    };
  }
  // Anything under way after the upload means a finish was taken (conservative: it may publish by itself).
  if (phaseStatus('processing_phase') !== 'not_started' || phaseStatus('publishing_phase') !== 'not_started')
    return { stage: 'processing' };
  if (phaseStatus('uploading_phase') === 'complete') return { stage: 'uploaded' };
  return { stage: 'uploading', bytesTransferred: Number(phase('uploading_phase').bytes_transferred) || 0 };
}

export type VideoRead = { kind: 'stage'; stage: VideoStage } | { kind: 'unreadable'; error: ProviderReadError };

/** GET /{video-id}?fields=status,…: a read, safe to repeat. */
export async function readVideo(graph: Graph, videoId: string, options: CallOptions): Promise<VideoRead> {
  try {
    return { kind: 'stage', stage: videoStage(await graph.readNode(videoId, { fields: VIDEO_FIELDS }, options)) };
  } catch (error) {
    if (error instanceof ProviderReadError) return { kind: 'unreadable', error };
    throw error;
  }
}

/** The 2xx JSON of an upload phase, or null. */
export function phaseAnswer(raw: RawOutcome): Record<string, unknown> | null {
  return raw.type === 'response' && raw.status >= 200 && raw.status < 300 && raw.body ? asRecord(raw.body) : null;
}

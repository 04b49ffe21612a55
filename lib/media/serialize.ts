import type { MediaRow } from '@/db/queries/media';
import { mediaContentUrl } from './content-url';
import type { MediaType } from './sniff';

/** A video's probe as the API and the composer show it (lib/media/video.ts `VideoFacts`, stored on the row). */
export type SerializedVideo = {
  durationMs: number;
  container: 'mp4' | 'mov';
  videoCodec: string;
  audioCodec: string | null;
  frameRate: number;
  rotation: number;
};

export type SerializedMedia = {
  id: string;
  type: MediaType;
  width: number;
  height: number;
  size: number;
  altText: string;
  url: string;
  /** A video's facts; absent for an image. */
  video?: SerializedVideo;
};

/** A media row as every answer shows it (an upload's, a post's): explicit fields, never the storage address. */
export function serializeMedia(row: MediaRow): SerializedMedia {
  const base = {
    id: row.id,
    type: row.type as MediaType, // media_type_ck
    width: row.width,
    height: row.height,
    size: row.size,
    altText: row.altText,
    url: mediaContentUrl(row.id),
  };
  if (row.durationMs === null) return base;
  return {
    ...base,
    video: {
      durationMs: row.durationMs,
      container: row.container as 'mp4' | 'mov',
      videoCodec: row.videoCodec!,
      audioCodec: row.audioCodec,
      frameRate: row.frameRate!,
      rotation: row.rotation!,
    },
  };
}

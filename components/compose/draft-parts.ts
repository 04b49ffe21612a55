/** The composer's draft pieces, shared by the draft hook, the thread editor and the media picker (no cycle). */
import type { SerializedVideo } from '@/lib/media/serialize';

/** An uploaded image or video as the draft keeps it (a video with its facts, for the checks before scheduling). */
export type DraftMedia = {
  id: string;
  type: string;
  width: number;
  height: number;
  size: number;
  altText: string;
  video?: SerializedVideo;
};

export type ThreadPart = { id: string; text: string; media?: DraftMedia[] };

export const newThreadPart = (text = '', media: DraftMedia[] = []): ThreadPart => ({
  id: crypto.randomUUID(),
  text,
  media,
});

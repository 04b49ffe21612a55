/** The composer's draft pieces, shared by the draft hook, the thread editor and the media picker (no cycle). */
import type { SerializedMedia, SerializedVideo } from '@/lib/media/serialize';

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

/** A stored image or video as a draft holds it (a template's, prefilled in the composer or the Library). */
export const draftMediaOf = (m: SerializedMedia): DraftMedia => ({
  id: m.id,
  type: m.type,
  width: m.width,
  height: m.height,
  size: m.size,
  altText: m.altText,
  ...(m.video ? { video: m.video } : {}),
});

/** Each id's medium where the workspace still has it (a deleted one is left out), in order. */
export const draftMediaFor = (ids: readonly string[], stored: ReadonlyMap<string, SerializedMedia>): DraftMedia[] =>
  ids.flatMap((id) => {
    const m = stored.get(id);
    return m ? [draftMediaOf(m)] : [];
  });

export type ThreadPart = { id: string; text: string; media?: DraftMedia[] };

export const newThreadPart = (text = '', media: DraftMedia[] = []): ThreadPart => ({
  id: crypto.randomUUID(),
  text,
  media,
});

/** The composer's draft pieces, shared by the draft hook, the thread editor and the media picker (no cycle). */
export type DraftMedia = { id: string; type: string; width: number; height: number; size: number; altText: string };

export type ThreadPart = { id: string; text: string; media?: DraftMedia[] };

export const newThreadPart = (text = '', media: DraftMedia[] = []): ThreadPart => ({
  id: crypto.randomUUID(),
  text,
  media,
});

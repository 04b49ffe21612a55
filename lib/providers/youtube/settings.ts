import type { PublishInput } from '../types';

/** What YouTube refuses in a title or a description (videos resource: invalidTitle, invalidDescription). */
const ANGLE_BRACKETS = /[<>]/g;
export const YOUTUBE_TITLE_MAX_CHARS = 100;
export const YOUTUBE_DESCRIPTION_MAX_BYTES = 5_000;

export type YoutubeVideoSettings = {
  title: string;
  description: string;
  tags: string[];
  privacyStatus: 'public' | 'unlisted' | 'private';
  /** A scheduled release (only with privacyStatus `private`, as YouTube requires). */
  publishAt?: string;
};

/**
 * Every YouTube-specific choice of one upload, in one place. Today it derives them from the post: the title from the
 * first non-empty line (at most 100 characters), the description from the text, both without `<` and `>` (YouTube
 * refuses them), no tags, privacy `public`. The per-account "post options" being built elsewhere plug in here, and
 * only here: title, tags, privacy and publishAt chosen by the user replace these defaults.
 */
export function youtubeVideoSettings(input: Pick<PublishInput, 'text'>): YoutubeVideoSettings {
  const description = input.text.replace(ANGLE_BRACKETS, '').trim();
  const firstLine = description.split('\n').find((line) => line.trim() !== '') ?? '';
  const title = [...firstLine.trim()].slice(0, YOUTUBE_TITLE_MAX_CHARS).join('').trim() || 'Video';
  return { title, description, tags: [], privacyStatus: 'public' };
}

/** The description's size as YouTube counts it: UTF-8 bytes, after the `<` and `>` it refuses are taken out. */
export function youtubeDescriptionBytes(text: string): number {
  // TextEncoder, not Buffer: the composer counts in the browser.
  return new TextEncoder().encode(youtubeVideoSettings({ text }).description).length;
}

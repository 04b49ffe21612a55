import type { PublishInput } from '../types';
import type { YoutubeOptions } from './options';

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
 * Every YouTube-specific choice of one upload, in one place: the account's options for this post
 * (lib/providers/youtube/options.ts, checked when the post was made) over the defaults derived from the post — the
 * title from the first non-empty line (at most 100 characters), the description from the text, both without `<` and
 * `>` (YouTube refuses them), no tags, privacy `public`; a `publish_at` makes it private until then.
 */
export function youtubeVideoSettings(input: Pick<PublishInput, 'text' | 'options'>): YoutubeVideoSettings {
  const options = (input.options ?? {}) as YoutubeOptions;
  const description = input.text.replace(ANGLE_BRACKETS, '').trim();
  const firstLine = description.split('\n').find((line) => line.trim() !== '') ?? '';
  const derived = [...firstLine.trim()].slice(0, YOUTUBE_TITLE_MAX_CHARS).join('').trim() || 'Video';
  return {
    title: options.title ?? derived,
    description,
    tags: options.tags ?? [],
    privacyStatus: options.publish_at ? 'private' : (options.privacy_status ?? 'public'),
    ...(options.publish_at ? { publishAt: new Date(options.publish_at).toISOString() } : {}),
  };
}

/** The description's size as YouTube counts it: UTF-8 bytes, after the `<` and `>` it refuses are taken out. */
export function youtubeDescriptionBytes(text: string): number {
  // TextEncoder, not Buffer: the composer counts in the browser.
  return new TextEncoder().encode(youtubeVideoSettings({ text }).description).length;
}

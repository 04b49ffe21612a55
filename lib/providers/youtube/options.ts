import { z } from 'zod';

/** What YouTube refuses in a title or a tag (videos resource: invalidTitle, invalidTags). */
const ANGLE_BRACKET = /[<>]/;
export const YOUTUBE_PRIVACY = ['public', 'unlisted', 'private'] as const;
/** snippet.tags: 500 characters in all, a tag with a space counted with its quotes, commas between them. */
export const YOUTUBE_TAGS_MAX_CHARS = 500;

export const youtubeTagsLength = (tags: readonly string[]) =>
  tags.reduce((n, t) => n + [...t].length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);

/**
 * A YouTube upload's options (`options: { [accountId]: {…} }`), the Data API's own names where it has them. None is
 * required: without a title the video takes the post's first line, without a privacy status it is public
 * (lib/providers/youtube/settings.ts). A scheduled release (`publish_at`) is a private video until then, as YouTube
 * requires: a time already past is refused when the post is made, and YouTube refuses one past by the upload (the
 * delivery then fails with its reason, nothing published).
 */
export const youtubeOptionsSchema = z
  .object({
    title: z
      .string()
      .trim()
      .min(1, 'A title says something')
      .refine((t) => [...t].length <= 100, 'At most 100 characters')
      .refine((t) => !ANGLE_BRACKET.test(t), 'YouTube takes no < or > in a title')
      .optional()
      .describe('The video’s title (at most 100 characters, no < or >); default: the post’s first line.'),
    privacy_status: z
      .enum(YOUTUBE_PRIVACY, { error: `One of ${YOUTUBE_PRIVACY.join(', ')}` })
      .optional()
      .describe('Who may watch it: public (the default), unlisted or private.'),
    tags: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'An empty tag')
          .refine((t) => !ANGLE_BRACKET.test(t) && !t.includes(','), 'No <, > or comma in a tag'),
      )
      .max(100)
      .refine(
        (tags) => youtubeTagsLength(tags) <= YOUTUBE_TAGS_MAX_CHARS,
        `At most ${YOUTUBE_TAGS_MAX_CHARS} characters in all`,
      )
      .optional()
      .describe('Tags, 500 characters in all (a tag with a space counts its quotes).'),
    publish_at: z.iso
      .datetime({ offset: true, error: 'An ISO 8601 time with its offset' })
      .refine((t) => Date.parse(t) > Date.now(), 'The release time has passed')
      .optional()
      .describe('A scheduled release: the video stays private until then (privacy_status must be private or absent).'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.publish_at && v.privacy_status && v.privacy_status !== 'private')
      ctx.addIssue({
        code: 'custom',
        path: ['privacy_status'],
        message: 'A video released at publish_at is private until then: leave privacy_status out or make it private',
      });
  });
export type YoutubeOptions = z.output<typeof youtubeOptionsSchema>;

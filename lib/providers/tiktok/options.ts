import { z } from 'zod';

/** Who may see a TikTok post (creator_info's `privacy_level_options` lists the ones a creator may choose now). */
export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export type TiktokPrivacyLevel = (typeof TIKTOK_PRIVACY_LEVELS)[number];

/**
 * A TikTok post's options (`options: { [accountId]: {…} }`), TikTok's own names (post_info of video/init). TikTok's
 * UX rules make the privacy level the user's choice, never a default, so a direct post without one is refused when it
 * is made. `post_mode: "inbox"` uploads to the creator's inbox instead, where they choose everything in the app.
 * Checked again against creator_info at publishing (lib/providers/tiktok/publish.ts).
 */
export const tiktokOptionsFields = z
  .object({
    privacy_level: z
      .enum(TIKTOK_PRIVACY_LEVELS, { error: `One of ${TIKTOK_PRIVACY_LEVELS.join(', ')}` })
      .optional()
      .describe(
        'Who may see it: one of the creator’s privacy_level_options (creator_info). Required for a direct post.',
      ),
    disable_comment: z
      .boolean()
      .optional()
      .describe('Turn comments off (always off where the creator turned them off).'),
    disable_duet: z.boolean().optional().describe('Turn Duet off (likewise).'),
    disable_stitch: z.boolean().optional().describe('Turn Stitch off (likewise).'),
    post_mode: z
      .enum(['direct', 'inbox'])
      .optional()
      .describe('`direct` (the default) posts it; `inbox` sends it to the creator’s TikTok inbox to finish there.'),
  })
  .strict();

export const tiktokOptionsSchema = tiktokOptionsFields.superRefine((v, ctx) => {
  const inbox = v.post_mode === 'inbox';
  if (!inbox && !v.privacy_level)
    ctx.addIssue({
      code: 'custom',
      path: ['privacy_level'],
      message: 'TikTok needs a privacy level chosen for the post (PUBLIC_TO_EVERYONE, SELF_ONLY…)',
    });
  if (inbox)
    for (const key of ['privacy_level', 'disable_comment', 'disable_duet', 'disable_stitch'] as const)
      if (v[key] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'A post sent to the TikTok inbox takes no settings: the creator chooses them in the app',
        });
});
export type TiktokOptions = z.output<typeof tiktokOptionsFields>;

/** What a creator allows now (creator_info/query), as the composer gets it (lib/reads/post-options.ts). */
export type TiktokOptionsInfo = {
  username: string | null;
  privacyLevels: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxDurationSec: number | null;
};

import { networkVideoCheck, videoFactsOf } from '@/lib/media/video-limits';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ComposeAccount } from './accounts-picker';
import type { DraftMedia } from './draft-parts';

export const megabytes = (bytes: number) =>
  bytes < 100_000 ? `${Math.max(1, Math.round(bytes / 1000))} KB` : `${(bytes / 1_000_000).toFixed(1)} MB`;

/**
 * What a chosen network will refuse (PROVIDER_META[...].media; a video against its `media.video` formats), said
 * before scheduling; the server checks again.
 */
export function networkHints(
  media: DraftMedia[],
  selected: (Pick<ComposeAccount, 'handle' | 'provider'> & { id?: string })[],
  unit: 'post' | 'part',
  options: { formats?: Readonly<Record<string, string>>; reply: boolean },
): string[] {
  const hints: string[] = [];
  const mixed = media.some((m) => m.video) && media.length > 1;
  for (const account of selected) {
    const { replies } = PROVIDER_META[account.provider];
    if (options.reply && replies?.media === false) {
      if (media.length > 0)
        hints.push(
          `${account.handle} (${PROVIDER_META[account.provider].label}) publishes this part as a ${replies.noun}, which takes no image or video.`,
        );
      continue;
    }
    const chosen = account.id ? options.formats?.[account.id] : undefined;
    const { label, media: limits } = PROVIDER_META[account.provider];
    // A video among other media is a carousel's item, where the network has carousels of videos (Instagram).
    const carousel = limits.video?.formats.some((f) => f.id === 'carousel') ?? false;
    if (mixed && !carousel && limits.video)
      hints.push(`${account.handle} (${label}) takes a video only on its own: attach nothing else to this ${unit}.`);
    if (limits.required && media.length === 0 && !options.reply)
      hints.push(`${account.handle} (${label}) publishes only posts with an image or a video.`);
    if (media.length > limits.maxPerPost)
      hints.push(`${account.handle} (${label}) takes at most ${limits.maxPerPost} images per ${unit}.`);
    media.forEach((m, i) => {
      const video = videoFactsOf(m);
      if (video) {
        // What fails where, per target, before scheduling (the server checks again).
        // The format it goes out in, as the server decides it (lib/posts/media.ts): a Story, a carousel's item, else
        // the network's first.
        const format = chosen === 'story' ? 'story' : mixed && carousel ? 'carousel' : undefined;
        const check = networkVideoCheck(PROVIDER_META[account.provider], video, format);
        if (!check.supported) hints.push(`Video ${i + 1}: ${check.message} (${account.handle}).`);
        else for (const problem of check.problems) hints.push(`Video ${i + 1}: ${problem} (${account.handle}).`);
      } else if (!limits.types.includes(m.type))
        hints.push(
          `Image ${i + 1}: ${label} does not take ${m.type.replace('image/', '').toUpperCase()} (${account.handle}).`,
        );
      else if (m.size > limits.maxBytes)
        hints.push(
          `Image ${i + 1} is too large for ${account.handle} (${label} takes up to ${megabytes(limits.maxBytes)}).`,
        );
    });
  }
  return hints;
}

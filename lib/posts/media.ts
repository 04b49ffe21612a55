import type { Executor } from '@/db/client';
import { getRequireAltText, getWorkspaceMedia } from '@/db/queries/media';
import { serializeMedia } from '@/lib/media/serialize';
import { networkVideoCheck, videoFactsOf } from '@/lib/media/video-limits';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { PostKind, ProviderName } from '@/lib/providers/types';
import type { FieldErrors } from './targets';

export { MAX_MEDIA_PER_POST } from '@/db/media-limits';

const megabytes = (bytes: number) => `${Math.round((bytes / 1_000_000) * 10) / 10} MB`;

/**
 * The images of a post against every target network's limits (PROVIDER_META[...].media: types, how many, how
 * large): an image too large for Bluesky's 1 MB is a field error naming the account, before anything is stored. A
 * video is checked against each network's `media.video` (lib/media/video-limits.ts); a network without it refuses it.
 * Every id must be an image of this workspace (another workspace's is reported as missing: I6). A thread part's
 * images are checked the same way, each part on its own, and reported as `parts.<i>.mediaIds` (`field`).
 */
export async function validateMedia(
  db: Executor,
  params: {
    workspaceId: string;
    mediaIds: string[];
    kind: PostKind | 'thread';
    accounts: { id?: string; provider: ProviderName; handle: string }[];
    /** Where errors go: `mediaIds` (a post) or `parts.<i>.mediaIds` (a thread part). */
    field?: string;
    /** Each account's chosen format (validateFormats), keyed by lower-case account id: a Story's video limits. */
    formats?: ReadonlyMap<string, string>;
  },
  errors: FieldErrors,
) {
  const field = params.field ?? 'mediaIds';
  // A reply, or a thread's part after the first: where a network's replies are comments, they take no media, and a
  // network that needs media needs it on the post only.
  const reply = params.kind === 'reply' || (params.kind === 'thread' && /^parts\.[1-9]/.test(field));
  // A thread's own `mediaIds` are none: its files are on its parts, checked one by one.
  const threadItself = params.kind === 'thread' && field === 'mediaIds';
  if (params.mediaIds.length === 0) {
    for (const account of params.accounts)
      if (PROVIDER_META[account.provider].media.required && !reply && !threadItself)
        (errors[field] ??= []).push(
          `${account.handle} (${PROVIDER_META[account.provider].label}) publishes only posts with an image or a video: attach one`,
        );
    return;
  }
  const unit = field === 'mediaIds' ? 'post' : 'part';
  const add = (message: string) => (errors[field] ??= []).push(message);
  if (new Set(params.mediaIds).size !== params.mediaIds.length) add('The same image is attached twice');
  if (params.kind === 'dm') add('Direct messages take no images');
  const rows = await getWorkspaceMedia(db, { workspaceId: params.workspaceId, ids: params.mediaIds });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const media = params.mediaIds.map((id) => byId.get(id)).filter((m) => m !== undefined);
  if (media.length !== new Set(params.mediaIds).size) add('One or more images do not exist in this workspace');
  const videos = media.map((m) => videoFactsOf(serializeMedia(m)));
  // Alt text is an image's: most networks have no field for a video's (its captions are another feature).
  const undescribed = media.some((m, i) => !videos[i] && !m.altText);
  if (undescribed && (await getRequireAltText(db, { workspaceId: params.workspaceId })))
    add('Every image needs alt text in this workspace; upload it again with a description');
  const mixed = videos.some(Boolean) && media.length > 1;
  for (const account of params.accounts) {
    const limits = PROVIDER_META[account.provider].media;
    const { label, replies } = PROVIDER_META[account.provider];
    if (reply && replies?.media === false) {
      add(`${account.handle} (${label}) publishes this part as a ${replies.noun}, which takes no image or video`);
      continue;
    }
    if (params.mediaIds.length > limits.maxPerPost)
      add(`${account.handle} (${label}) takes at most ${limits.maxPerPost} images per ${unit}`);
    // A video among other media is a carousel's item, where the network has carousels of videos (Instagram).
    const carousel = limits.video?.formats.some((f) => f.id === 'carousel') ?? false;
    if (mixed && !carousel && limits.video)
      add(`${account.handle} (${label}) takes a video only on its own: attach nothing else to this ${unit}`);
    const chosen = account.id ? params.formats?.get(account.id.toLowerCase()) : undefined;
    for (const [i, m] of media.entries()) {
      const video = videos[i];
      if (video) {
        // The format it goes out in (a Story, a carousel's item, else the network's first); the check names the
        // network and says what to change.
        const chosenVideo = chosen && limits.video?.formats.some((f) => f.id === chosen) ? chosen : undefined;
        const format = chosenVideo ?? (mixed && carousel ? 'carousel' : undefined);
        const check = networkVideoCheck(PROVIDER_META[account.provider], video, format);
        if (!check.supported) add(`${check.message} (${account.handle})`);
        else for (const problem of check.problems) add(`${problem} (${account.handle})`);
      } else if (!limits.types.includes(m.type))
        add(
          `Image ${i + 1} (${m.type.replace('image/', '').toUpperCase()}) is not accepted by ${account.handle} (${label})`,
        );
      else if (m.size > limits.maxBytes)
        add(
          `Image ${i + 1} is ${megabytes(m.size)}: too large for ${account.handle} (${label} takes up to ${megabytes(limits.maxBytes)})`,
        );
    }
  }
}

/**
 * Each chosen format against its account's network (PROVIDER_META[...].formats) and what is attached: a Story
 * is one image or one video. Errors go to `formats.<accountId>`. Returns the formats keyed by lower-case account id.
 */
export function validateFormats(
  params: {
    formats: Record<string, string> | undefined;
    accounts: { id: string; provider: ProviderName; handle: string }[];
    mediaCount: number;
  },
  errors: FieldErrors,
): Map<string, string> {
  const chosen = new Map<string, string>();
  for (const [accountId, format] of Object.entries(params.formats ?? {})) {
    const account = params.accounts.find((a) => a.id.toLowerCase() === accountId.toLowerCase());
    if (!account) continue; // an account not of this workspace is reported by validateTargets
    const { label, formats = [] } = PROVIDER_META[account.provider];
    const field = `formats.${accountId}`;
    if (!formats.some((f) => f.id === format))
      (errors[field] ??= []).push(
        formats.length === 0
          ? `${account.handle} (${label}) publishes one way only: leave its format out`
          : `${account.handle} (${label}) takes ${formats.map((f) => `“${f.id}”`).join(', ')}, not “${format}”`,
      );
    else if (format === 'story' && params.mediaCount !== 1)
      (errors[field] ??= []).push(`A Story on ${account.handle} (${label}) is one image or one video`);
    else chosen.set(accountId.toLowerCase(), format);
  }
  return chosen;
}

/** Every thread part's images, each part checked on its own (see validateMedia). */
export async function validatePartMedia(
  db: Executor,
  params: {
    workspaceId: string;
    partMediaIds: string[][];
    accounts: { provider: ProviderName; handle: string }[];
  },
  errors: FieldErrors,
) {
  for (const [i, mediaIds] of params.partMediaIds.entries())
    await validateMedia(db, { ...params, mediaIds, kind: 'thread', field: `parts.${i}.mediaIds` }, errors);
}

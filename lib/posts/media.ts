import type { Executor } from '@/db/client';
import { getRequireAltText, getWorkspaceMedia } from '@/db/queries/media';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { PostKind, ProviderName } from '@/lib/providers/types';
import type { FieldErrors } from './targets';

export const MAX_MEDIA_PER_POST = 4;

const megabytes = (bytes: number) => `${Math.round((bytes / 1_000_000) * 10) / 10} MB`;

/**
 * The images of a post against every target network's limits (PROVIDER_META[...].media: types, how many, how
 * large): an image too large for Bluesky's 1 MB is a field error naming the account, before anything is stored.
 * Every id must be an image of this workspace (another workspace's is reported as missing: I6). A thread part's
 * images are checked the same way, each part on its own, and reported as `parts.<i>.mediaIds` (`field`).
 */
export async function validateMedia(
  db: Executor,
  params: {
    workspaceId: string;
    mediaIds: string[];
    kind: PostKind | 'thread';
    accounts: { provider: ProviderName; handle: string }[];
    /** Where errors go: `mediaIds` (a post) or `parts.<i>.mediaIds` (a thread part). */
    field?: string;
  },
  errors: FieldErrors,
) {
  if (params.mediaIds.length === 0) return;
  const field = params.field ?? 'mediaIds';
  const unit = field === 'mediaIds' ? 'post' : 'part';
  const add = (message: string) => (errors[field] ??= []).push(message);
  if (new Set(params.mediaIds).size !== params.mediaIds.length) add('The same image is attached twice');
  if (params.kind === 'dm') add('Direct messages take no images');
  const rows = await getWorkspaceMedia(db, { workspaceId: params.workspaceId, ids: params.mediaIds });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const media = params.mediaIds.map((id) => byId.get(id)).filter((m) => m !== undefined);
  if (media.length !== new Set(params.mediaIds).size) add('One or more images do not exist in this workspace');
  if (media.some((m) => !m.altText) && (await getRequireAltText(db, { workspaceId: params.workspaceId })))
    add('Every image needs alt text in this workspace; upload it again with a description');
  for (const account of params.accounts) {
    const limits = PROVIDER_META[account.provider].media;
    const label = PROVIDER_META[account.provider].label;
    if (params.mediaIds.length > limits.maxPerPost)
      add(`${account.handle} (${label}) takes at most ${limits.maxPerPost} images per ${unit}`);
    for (const [i, m] of media.entries()) {
      if (!limits.types.includes(m.type))
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

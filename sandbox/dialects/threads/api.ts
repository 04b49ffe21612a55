import { sniffImageType } from '@/lib/media/sniff';
import { graphDialect, storeContainer } from '@/sandbox/dialects/graph/api';
import { mediaInsights, threadsUserInsights } from '@/sandbox/dialects/graph/insights';
import { fetchImageOverHttp, sha256Of } from '@/sandbox/http/media';
import type { SandboxAccount, SandboxDeps, SandboxPostMedia } from '@/sandbox/store/types';
import { invalidParameter } from './errors';
import { listThreads, mediaJson, publishingLimit } from './reads';
import { threadsLength } from './text-length';

// The Threads API (graph.threads.net) as the sandbox serves it (sandbox/dialects/graph/api.ts: the two steps).

const MAX_TEXT = 500;
/** "Threads profiles are limited to 250 API-published posts within a 24-hour moving period." */
const POST_QUOTA = { max: 250, windowMs: 24 * 3_600_000 };
/** "…limited to 1,000 API-published replies within a 24-hour moving period." */
const REPLY_QUOTA = { max: 1_000, windowMs: 24 * 3_600_000 };

export const handleThreads = graphDialect({
  platform: 'threads',
  exchangeGrant: 'th_exchange_token',
  refreshGrant: 'th_refresh_token',
  scope: 'threads_basic threads_content_publish',
  createEdge: 'threads',
  publishEdge: 'threads_publish',
  listings: { threads: 'post', replies: 'reply' },
  limitEdge: 'threads_publishing_limit',
  statusField: 'status',
  errorField: 'error_message',
  containerNode: 'ThreadsMediaContainer',
  mediaNode: 'ThreadsMedia',
  createContainer: createThreadsContainer,
  quota: (container) =>
    container?.kind === 'reply'
      ? { ...REPLY_QUOTA, message: 'The reply publishing limit (1000 per 24 hours) has been reached.' }
      : { ...POST_QUOTA, message: 'The publishing limit (250 posts per 24 hours) has been reached.' },
  listPosts: (url, params, viewer, deps, base, edge) =>
    listThreads(url, params, viewer, deps, base, edge === 'replies' ? 'reply' : 'post'),
  publishingLimit,
  mediaJson,
  mediaEdges: { insights: mediaInsights('threads') },
  userEdges: { threads_insights: threadsUserInsights },
  canDelete: true,
});

/**
 * POST /{user}/threads: a media container (TEXT, IMAGE or CAROUSEL), optionally a reply. Not a post yet. An IMAGE
 * container's `image_url` is fetched by the platform itself (here, before answering); Threads takes JPEG and PNG,
 * and an image it cannot fetch or read leaves the container in ERROR. A CAROUSEL names 2–20 item containers.
 */
async function createThreadsContainer(params: URLSearchParams, viewer: SandboxAccount, deps: SandboxDeps) {
  const mediaType = params.get('media_type');
  if (!mediaType) return invalidParameter('The parameter media_type is required.');
  if (mediaType !== 'TEXT' && mediaType !== 'IMAGE' && mediaType !== 'CAROUSEL')
    return invalidParameter(`media_type ${mediaType} is not supported by this sandbox (TEXT, IMAGE, CAROUSEL).`);
  if (params.get('auto_publish_text') === 'true')
    return invalidParameter('auto_publish_text is not supported by this sandbox.');
  const text = params.get('text') ?? '';
  if (mediaType === 'TEXT' && text.trim() === '') return invalidParameter('The parameter text is required.');
  if (threadsLength(text) > MAX_TEXT)
    return invalidParameter(`Param text must be at most ${MAX_TEXT} characters long.`);
  const imageUrl = params.get('image_url');
  if (mediaType === 'IMAGE' && !/^https?:\/\//.test(imageUrl ?? ''))
    return invalidParameter('The parameter image_url is required.');
  const replyTo = params.get('reply_to_id');
  if (replyTo !== null) {
    const parent = await deps.store.getPost(replyTo);
    const parentAccount = parent ? await deps.store.getAccountById(parent.accountId) : null;
    if (!parent || parent.kind === 'dm' || parentAccount?.platform !== 'threads')
      return invalidParameter('reply_to_id is not a Threads media id that can be replied to.');
  }
  let media: SandboxPostMedia[] = [];
  let errorMessage: string | null = null;
  if (mediaType === 'CAROUSEL') {
    const children = (params.get('children') ?? '').split(',').filter(Boolean);
    if (children.length < 2 || children.length > 20)
      return invalidParameter('The parameter children must name 2 to 20 carousel item containers.');
    for (const id of children) {
      const child = /^\d{1,19}$/.test(id) ? await deps.store.getContainer(id) : null;
      if (!child || child.accountId !== viewer.id || child.mediaType !== 'IMAGE' || child.errorMessage)
        return invalidParameter(`The carousel item ${id} is not a finished item container of this user.`);
      media.push(...child.media);
    }
  }
  if (mediaType === 'IMAGE') {
    const bytes = await (deps.fetchImage ?? fetchImageOverHttp)(imageUrl!);
    const type = bytes && sniffImageType(bytes);
    if (bytes && (type === 'image/jpeg' || type === 'image/png'))
      media = [{ type, altText: params.get('alt_text') ?? '', sha256: sha256Of(bytes) }];
    else errorMessage = 'UNKNOWN'; // not fetched, or not a JPEG or PNG
  }
  return storeContainer(deps, viewer, {
    kind: replyTo ? 'reply' : 'post',
    mediaType,
    text,
    imageUrl: mediaType === 'IMAGE' ? imageUrl : null,
    videoUrl: null,
    media,
    inReplyToId: replyTo,
    errorMessage,
  });
}

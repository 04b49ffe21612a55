import { callBudget, callOptions, type CallOptions } from '../call-budget';
import { keptId } from '../kept-state';
import { mediaNotPosted, readMedia } from '../media-step';
import { rejectedInput, withTiming } from '../publish-result';
import { asRecord, asString, checkIdentity } from '../read';
import type { ProviderTransport } from '../transport';
import {
  ProviderReadError,
  type Classification,
  type ListRecentInput,
  type ProviderClient,
  type PublishInput,
  type PublishMedia,
  type PublishResult,
  type RawOutcome,
  type ReadBack,
  type ReadBackInput,
  type RecentPost,
} from '../types';
import { deleteGraphObject, listAccountPosts } from '../meta-graph/client';
import { createGraph, type Graph, type GraphAccount } from '../meta-graph/graph';
import { facebookPostMetrics, readFollowersField } from '../meta-graph/insights';
import { FACEBOOK_NETWORK } from '../meta-graph/network';
import { classifyFacebook } from './classifier';
import { publishVideo } from './publish-video';
import { readVideo } from './video';

const isVideo = (m: PublishMedia) => m.mimeType.startsWith('video/');
/** A photo's alt text, as Graph's photo upload takes it (`alt_text_custom`). */
const altText = (m: PublishMedia): Record<string, string> => (m.altText ? { alt_text_custom: m.altText } : {});
/** The first web address in the text: a link post's `link` (Facebook renders its preview). */
const firstLink = (text: string) => /\bhttps?:\/\/[^\s<>"]+/i.exec(text)?.[0];

/**
 * Facebook Pages through the Graph API (developers.facebook.com/docs/pages-api/posts) with a page token: text and link
 * posts (`POST /{page-id}/feed`), one photo (`POST /{page-id}/photos`), several photos uploaded unpublished and
 * attached to one feed post (`attached_media`), or one video through the resumable upload (publish-video.ts).
 * Facebook has no idempotency: an unknown outcome of a post is settled by reading the page's published posts (the
 * reconciler's timeline), of a video by its status (`readBack`).
 */
export function createFacebookClient(account: GraphAccount, send?: ProviderTransport): ProviderClient {
  const graph = createGraph(FACEBOOK_NETWORK, classifyFacebook, account, send);

  async function publish(input: PublishInput): Promise<PublishResult> {
    const startedAt = new Date();
    const media = input.media ?? [];
    if (input.kind !== 'post')
      return rejectedInput('Facebook Pages publish posts only here: no replies or DMs.', startedAt);
    const videos = media.filter(isVideo);
    if (videos.length > 0 && media.length > 1)
      return rejectedInput('A Facebook post takes one video, or up to 10 photos, never both.', startedAt);
    const budget = callBudget(input.timeoutMs, input.signal);
    if (videos.length === 1) return publishVideo(graph, input, videos[0]!, budget, startedAt);
    const done = (c: Classification, raw: RawOutcome) => withTiming(c, raw, startedAt);

    if (media.length === 0) {
      const link = firstLink(input.text);
      const raw = await graph.postEdge(
        'feed',
        { form: { message: input.text, ...(link ? { link } : {}) } },
        budget.options(),
      );
      return done(await postOutcome(raw, 'feed', budget.options()), raw);
    }
    const read = await readMedia(media);
    if (!read.ok) return done(read.classification, read.raw);
    const photo = (bytes: Uint8Array, m: PublishMedia) => ({
      name: 'source',
      filename: 'photo',
      contentType: m.mimeType,
      data: bytes,
    });
    if (media.length === 1) {
      const raw = await graph.postEdge(
        'photos',
        {
          multipart: {
            fields: { message: input.text, published: 'true', ...altText(media[0]!) },
            files: [photo(read.bytes[0]!, media[0]!)],
          },
        },
        budget.options(),
      );
      return done(await postOutcome(raw, 'photo', budget.options()), raw);
    }
    // Several photos: each uploaded unpublished (not a post: an unknown answer there is not_sent), then one feed post.
    const attached: string[] = [];
    for (const [i, m] of media.entries()) {
      const raw = await graph.postEdge(
        'photos',
        {
          multipart: {
            fields: { published: 'false', ...altText(m) },
            files: [photo(read.bytes[i]!, m)],
          },
        },
        budget.options(),
      );
      const c = graph.classify(raw);
      if (c.outcome !== 'sent' || !c.externalId) return done(mediaNotPosted('Facebook', c), raw);
      attached.push(c.externalId);
    }
    const form: Record<string, string> = { message: input.text };
    attached.forEach((id, i) => (form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id })));
    const raw = await graph.postEdge('feed', { form }, budget.options());
    return done(await postOutcome(raw, 'feed', budget.options(), { attachedMedia: attached.join(',') }), raw);
  }

  /**
   * A feed or photo answer: `{ id }` (feed: `{page-id}_{post-id}`) or `{ id, post_id }` (a photo and its post).
   * Anything unknown is ambiguous with the step named: the page's posts settle it (the reconciler's timeline).
   */
  async function postOutcome(
    raw: RawOutcome,
    step: 'feed' | 'photo',
    options: CallOptions,
    extra: Record<string, unknown> = {},
  ): Promise<Classification> {
    const c = graph.classify(raw);
    const evidence = { ...c.evidence, ...extra, step };
    if (c.outcome !== 'sent') return { ...c, evidence };
    const body = raw.type === 'response' ? asRecord(raw.body) : {};
    const postId = asString(body.post_id) ?? c.externalId!;
    const url = await graph.permalink(postId, options).catch(() => undefined);
    return { ...c, externalId: postId, ...(url ? { url } : {}), evidence };
  }

  const listRecent = (input: ListRecentInput) => listAccountPosts(graph, ['published_posts'], input);

  /**
   * A video delivery's kept video says what happened; a text, link or photo post leaves no evidence on Facebook, so
   * the page's published posts decide (`list`: the same three answers as every text-matched network).
   */
  async function readBack(input: ReadBackInput): Promise<ReadBack> {
    const videoId = keptId(input, 'videoId');
    if (!videoId) return { verdict: 'list', evidence: { videoId: null } };
    const read = await readVideo(graph, videoId, callOptions(input));
    if (read.kind === 'unreadable') throw read.error;
    const { stage } = read;
    const evidence = { videoId, stage: stage.stage };
    switch (stage.stage) {
      case 'published': {
        if (!stage.postId) throw notNamed(videoId);
        const post: RecentPost = {
          id: stage.postId,
          text: input.text,
          createdAt: stage.publishedAt ?? new Date(),
          inReplyTo: null,
          ...(stage.url ? { url: stage.url } : {}),
        };
        return { verdict: 'found', post, evidence };
      }
      case 'processing': {
        const created = typeof input.state.videoCreatedAt === 'string' ? Date.parse(input.state.videoCreatedAt) : NaN;
        const age = Number.isNaN(created) ? 2_000 : Date.now() - created;
        const wait = Math.min(15 * 60_000, Math.max(1_000, age / 2));
        return {
          verdict: 'pending',
          reason: 'Facebook is still processing the video; it publishes by itself',
          retryAt: new Date(Date.now() + wait),
          evidence,
        };
      }
      case 'error':
        // Absent for good: the released attempt reads the error and fails the delivery with it.
        return { verdict: 'absent', evidence: { ...evidence, error: stage.message } };
      default:
        // Uploading, uploaded or expired: the finish never took effect, so no post can come of this video.
        return { verdict: 'absent', evidence };
    }
  }

  function whoAmI(options: CallOptions = {}) {
    return checkIdentity(async () => {
      const me = await graph.me(options);
      const id = String(me.id);
      return { id, handle: asString(me.name) ?? id, displayName: asString(me.name) ?? null };
    });
  }

  /** The pages this user token administers with CREATE_CONTENT, each with its own page token (GET /me/accounts). */
  async function listIdentities(options: CallOptions = {}) {
    return pagesOf(graph, options);
  }

  const deletePost = (id: string, options: CallOptions = {}) => deleteGraphObject(graph, id, options);

  return {
    provider: 'facebook',
    publish,
    listRecent,
    whoAmI,
    deletePost,
    readBack,
    listIdentities,
    postMetrics: facebookPostMetrics(graph),
    readFollowers: (options: CallOptions = {}) => readFollowersField(graph, account.platformUserId, options),
  };
}

/** Pages whose token may publish: the person can perform CREATE_CONTENT there (Facebook's task list). */
async function pagesOf(graph: Graph, options: CallOptions) {
  const pages: {
    platformUserId: string;
    handle: string;
    displayName: string | null;
    credentials: { accessToken: string };
  }[] = [];
  let after: string | undefined;
  for (let page = 0; page < 5; page++) {
    const body = await graph.readMine(
      'accounts',
      { fields: 'id,name,access_token,tasks', limit: '100', after },
      options,
    );
    for (const item of Array.isArray(body.data) ? body.data : []) {
      const entry = asRecord(item);
      const id = asString(entry.id);
      const token = asString(entry.access_token);
      const tasks = Array.isArray(entry.tasks) ? entry.tasks : [];
      if (!id || !token || !tasks.includes('CREATE_CONTENT')) continue;
      const name = asString(entry.name) ?? id;
      pages.push({ platformUserId: id, handle: name, displayName: name, credentials: { accessToken: token } });
    }
    const paging = asRecord(body.paging);
    after = asString(asRecord(paging.cursors).after);
    if (!asString(paging.next) || !after) break;
  }
  return pages;
}

/** Published, but its post is not named yet: unreadable for now, so the reconciler reads again. */
function notNamed(videoId: string): ProviderReadError {
  const reason = `The video ${videoId} reads published, but Facebook does not name its post yet`;
  return new ProviderReadError(reason, {
    outcome: 'ambiguous',
    rule: 'facebook-video-post-not-named',
    reason,
    evidence: { videoId, stage: 'published' },
  });
}

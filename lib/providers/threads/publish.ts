import { NO_SOCKET } from '@/lib/net/send';
import { rejectedInput, withTiming } from '../publish-result';
import type { Classification, PostKind, PublishInput, PublishMedia, PublishResult, RawOutcome } from '../types';
import { CONTAINER_RETRY_MS, classifyThreads } from './classifier';
import { findPublishedPost } from './find-published';
import { callBudget, type ThreadsGraph } from './graph';

/** Below this much budget a step is not started (our own timeout would make it ambiguous for nothing). */
const MIN_STEP_MS = 200;

/**
 * One attempt, in two steps that happen exactly once per delivery (docs/architecture.md#publishing):
 * (a) create a media container, (b) keep its id on the delivery (fenced by the claim) BEFORE (c) publishing
 * it. A later attempt reuses the kept container and reads its status first, so it never publishes blind:
 * FINISHED → publish, PUBLISHED → already out, EXPIRED → a new container, ERROR → failed, IN_PROGRESS → later.
 * Every step shares the caller's whole-call budget: the attempt ends within `timeoutMs`, as the reconciler's
 * quiet period assumes.
 */
export async function publishThread(graph: ThreadsGraph, input: PublishInput): Promise<PublishResult> {
  const startedAt = new Date();
  if (input.kind === 'dm') return rejectedInput('Threads has no direct messages.', startedAt);
  if (input.kind === 'reply' && !input.inReplyTo)
    return rejectedInput('A reply needs the id of the post it answers.', startedAt);
  const budget = callBudget(input.timeoutMs, input.signal);
  const done = (classification: Classification, raw: RawOutcome) => withTiming(classification, raw, startedAt);
  const wanted = {
    text: input.text,
    kind: input.kind as Exclude<PostKind, 'dm'>,
    inReplyTo: input.inReplyTo ?? null,
    containerCreatedAt: typeof input.state?.containerCreatedAt === 'string' ? input.state.containerCreatedAt : null,
  };

  const media = input.media ?? [];
  if (media.some((m) => !m.publicUrl))
    return rejectedInput('Threads fetches images by URL: each image needs a public URL.', startedAt);
  let containerId = typeof input.state?.containerId === 'string' ? input.state.containerId : undefined;
  let lastRaw: RawOutcome = NOT_CALLED;
  if (containerId) {
    const kept = { containerId };
    const read = await graph.containerStatus(containerId, budget.options());
    lastRaw = read.raw;
    if (read.kind === 'unreadable') {
      const c = classifyThreads(read.raw);
      // A read publishes nothing: only a definite refusal (a revoked token) fails the delivery.
      if (c.outcome === 'failed') return done({ ...c, evidence: { ...c.evidence, ...kept } }, read.raw);
      return done(
        {
          outcome: 'not_sent',
          rule: 'threads-status-unreadable',
          httpStatus: c.httpStatus,
          retryAt: c.retryAt ?? new Date(Date.now() + CONTAINER_RETRY_MS),
          reason: `The media container’s status could not be read (${c.reason}); nothing was published.`,
          evidence: { ...c.evidence, ...kept },
        },
        read.raw,
      );
    }
    // A container Threads no longer knows was never published (a published one reads PUBLISHED): make another.
    if (read.kind === 'missing') containerId = undefined;
    else if (read.status === 'PUBLISHED')
      return done(await alreadyPublished(graph, wanted, containerId, budget), read.raw);
    else if (read.status === 'IN_PROGRESS')
      return done(
        {
          outcome: 'not_sent',
          rule: 'threads-container-in-progress',
          retryAt: new Date(Date.now() + CONTAINER_RETRY_MS),
          reason: 'The media container is still being processed; nothing was published yet.',
          evidence: kept,
        },
        read.raw,
      );
    else if (read.status === 'ERROR')
      return done(
        {
          outcome: 'failed',
          rule: 'threads-container-error',
          reason: `Threads could not process the media container (${read.errorMessage ?? 'no reason given'}).`,
          evidence: { ...kept, errorMessage: read.errorMessage },
        },
        read.raw,
      );
    // An expired container can never be published: it is not a post, and a new one replaces it.
    else if (read.status === 'EXPIRED') containerId = undefined;
  }

  if (!containerId) {
    if (budget.left() < MIN_STEP_MS) return done(noTimeLeft(), lastRaw);
    const replyTo = input.kind === 'reply' ? input.inReplyTo : undefined;
    let children: string[] | undefined;
    if (media.length > 1) {
      // Carousel items are containers too, never posts: one that fails or goes unanswered is simply not used.
      children = [];
      for (const item of media) {
        const itemRaw = await graph.createContainer({ image: imageOf(item), carouselItem: true }, budget.options());
        const made = classifyThreads(itemRaw);
        if (made.outcome !== 'sent') return done(containerNotCreated(made), itemRaw);
        children.push(made.externalId!);
        if (budget.left() < MIN_STEP_MS) return done(noTimeLeft(), itemRaw);
      }
    }
    const raw = await graph.createContainer(
      children
        ? { text: input.text, replyTo, children }
        : media.length === 1
          ? { text: input.text, replyTo, image: imageOf(media[0]!) }
          : { text: input.text, replyTo },
      budget.options(),
    );
    const created = classifyThreads(raw);
    if (created.outcome !== 'sent') return done(containerNotCreated(created), raw);
    containerId = created.externalId!;
    lastRaw = raw;
    // Kept on the delivery before anything public happens; a lost claim stops here (another worker may own it).
    const saved = input.saveState
      ? await input.saveState({ containerId, containerCreatedAt: new Date().toISOString() }).catch(() => false)
      : true;
    if (!saved)
      return done(
        {
          outcome: 'not_sent',
          rule: 'threads-claim-lost',
          reason: 'The claim on this delivery was lost before publishing, so the container was not published.',
          evidence: { containerId, unsavedContainer: true },
        },
        raw,
      );
  }

  if (media.length > 0 && !input.state?.containerId) {
    // Threads fetches and processes images after answering: a container still IN_PROGRESS cannot be published yet.
    // It is kept on the delivery, so the next attempt reads its status before anything else (above).
    const read = await graph.containerStatus(containerId, budget.options());
    if (read.kind === 'status' && read.status !== 'FINISHED')
      return done(
        read.status === 'ERROR'
          ? {
              outcome: 'failed',
              rule: 'threads-container-error',
              reason: `Threads could not process the image container (${read.errorMessage ?? 'no reason given'}).`,
              evidence: { containerId, errorMessage: read.errorMessage },
            }
          : {
              outcome: 'not_sent',
              rule: 'threads-container-in-progress',
              retryAt: new Date(Date.now() + CONTAINER_RETRY_MS),
              reason: 'Threads is still processing the image; nothing was published yet.',
              evidence: { containerId },
            },
        read.raw,
      );
  }
  if (budget.left() < MIN_STEP_MS) return done({ ...noTimeLeft(), evidence: { containerId } }, lastRaw);
  const raw = await graph.publishContainer(containerId, budget.options());
  const published = classifyThreads(raw);
  const evidence = { ...published.evidence, containerId };
  if (published.outcome === 'sent') {
    const url =
      budget.left() >= MIN_STEP_MS ? await graph.permalink(published.externalId!, budget.options()) : undefined;
    return done({ ...published, ...(url ? { url } : {}), evidence }, raw);
  }
  if (published.outcome === 'failed' && budget.left() >= MIN_STEP_MS) {
    // A definite refusal may mean an earlier request of this delivery got there first: the status tells.
    const read = await graph.containerStatus(containerId, budget.options());
    if (read.kind === 'status' && read.status === 'PUBLISHED')
      return done(await alreadyPublished(graph, wanted, containerId, budget), raw);
    if (read.kind === 'status' && read.status === 'EXPIRED')
      return done(
        {
          outcome: 'not_sent',
          rule: 'threads-container-expired',
          httpStatus: published.httpStatus,
          reason: 'The media container expired before it was published; a new one is made next time.',
          evidence,
        },
        raw,
      );
  }
  return done({ ...published, evidence }, raw);
}

/** Threads fetches the image itself, from a signed URL of this app that expires (lib/media/signed-url.ts). */
const imageOf = (item: PublishMedia) => ({ url: item.publicUrl!(), altText: item.altText });

/**
 * PUBLISHED: the post is out. Its media id comes from the account's listing; until it is listed (read lag) the
 * outcome is ambiguous, and the reconciler finds the post (the container reads PUBLISHED: never published again).
 * The container's id never stands for the post: it is no post to link, reply to or delete.
 */
async function alreadyPublished(
  graph: ThreadsGraph,
  wanted: Parameters<typeof findPublishedPost>[1],
  containerId: string,
  budget: ReturnType<typeof callBudget>,
): Promise<Classification> {
  const post = budget.left() >= MIN_STEP_MS ? await findPublishedPost(graph, wanted, budget.options()) : null;
  if (!post)
    return {
      outcome: 'ambiguous',
      rule: 'threads-container-published-unlisted',
      reason:
        'Already published by an earlier attempt (the container reads PUBLISHED), but the post is not listed yet: reconciliation finds it.',
      evidence: { containerId, status: 'PUBLISHED', listed: false },
    };
  return {
    outcome: 'sent',
    rule: 'threads-container-published',
    externalId: post.id,
    ...(post.url ? { url: post.url } : {}),
    reason: 'Already published by an earlier attempt (the container reads PUBLISHED); found in the account’s threads.',
    evidence: { containerId, status: 'PUBLISHED', listed: true },
  };
}

/**
 * Step (a) without a container id. An unknown outcome here is not ambiguous: a container is not a post, and
 * an orphan one is never published (only its id can publish it, and we never learned it); it expires in 24 h.
 */
function containerNotCreated(c: Classification): Classification {
  if (c.outcome !== 'ambiguous') return c;
  return {
    ...c,
    outcome: 'not_sent',
    rule: 'threads-container-not-created',
    reason: `Creating the media container had no clear answer (${c.reason}); a container is not a post, so nothing was published.`,
  };
}

function noTimeLeft(): Classification {
  return {
    outcome: 'not_sent',
    rule: 'threads-no-time-left',
    reason: 'The attempt’s time ran out before the next step, which was not started; nothing was published.',
  };
}

const NOT_CALLED: RawOutcome = {
  type: 'error',
  code: 'NOT_STARTED',
  name: 'Error',
  message: 'No request was sent',
  timedOut: false,
  connection: NO_SOCKET,
};

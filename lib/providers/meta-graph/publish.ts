import { NO_SOCKET } from '@/lib/net/send';
import { callBudget, type CallBudget } from '../call-budget';
import { rejectedInput, withTiming } from '../publish-result';
import type {
  Classification,
  PostKind,
  ProviderState,
  PublishInput,
  PublishMedia,
  PublishResult,
  RawOutcome,
} from '../types';
import { CONTAINER_RETRY_MS } from './classifier';
import { findPublishedPost, type WantedPost } from './find-published';
import type { ContainerParams, Graph } from './graph';

/** Below this much budget a step is not started (our own timeout would make it ambiguous for nothing). */
const MIN_STEP_MS = 200;

/**
 * What one container network decides for itself; the steps around it are the same (publishWithContainer).
 */
export type ContainerFlow = {
  graph: Graph;
  /** The input as this network takes it, or the sentence that refuses it (nothing is called). */
  refuse(input: PublishInput): string | null;
  /** A carousel item's container parameters (items are containers too, never posts). */
  itemParams(item: PublishMedia): ContainerParams;
  /** The container that becomes the post: text, the reply target, one medium or the carousel's items. */
  mainParams(input: PublishInput, media: readonly PublishMedia[], children: string[] | undefined): ContainerParams;
  /** Whether a carousel's items must read FINISHED before the carousel is made (Instagram: when one is a video). */
  itemsProcess?(media: readonly PublishMedia[]): boolean;
  /** Whether a new container must read FINISHED before it is published (the platform fetches media later). */
  processesMedia(media: readonly PublishMedia[]): boolean;
  /**
   * Before a publish: a reason to wait (Instagram's content_publishing_limit spent), as a not_sent, or null.
   * A read only: it publishes nothing, and an unreadable limit does not hold the post (the publish answers it).
   */
  beforePublish?(budget: CallBudget): Promise<Classification | null>;
  /**
   * An EXPIRED container: Threads makes another at once; Instagram only after the account's listing proves no
   * copy is there (`prove-absence`), since an earlier attempt's answer may have been lost.
   */
  onExpired: 'new-container' | 'prove-absence';
  /** What else is kept with the container (Instagram: that it is a Story), for later attempts and the reconciler. */
  keep?(input: PublishInput): ProviderState;
  /**
   * Whether the account's listings can show this delivery's post by its text (an Instagram Story has no caption
   * and is not in the media listing): where not, no listing ever proves its absence, and no id is found there.
   */
  listable(state: ProviderState): boolean;
};

/**
 * One attempt, in two steps that happen exactly once per delivery (docs/architecture.md#publishing):
 * (a) create a media container, (b) keep its id on the delivery (fenced by the claim) BEFORE (c) publishing
 * it. A later attempt reuses the kept container and reads its status first, so it never publishes blind:
 * FINISHED → publish, PUBLISHED → already out, EXPIRED → a new container, ERROR → failed, IN_PROGRESS → later.
 * Every step shares the caller's whole-call budget: the attempt ends within `timeoutMs`, as the reconciler's
 * quiet period assumes.
 */
export async function publishWithContainer(flow: ContainerFlow, input: PublishInput): Promise<PublishResult> {
  const { graph } = flow;
  const { name, label } = graph.network;
  const classify = graph.classify;
  const startedAt = new Date();
  const refusal = flow.refuse(input);
  if (refusal) return rejectedInput(refusal, startedAt);
  const budget = callBudget(input.timeoutMs, input.signal);
  const done = (classification: Classification, raw: RawOutcome) => withTiming(classification, raw, startedAt);
  const wanted: WantedPost = {
    text: input.text,
    kind: input.kind as Exclude<PostKind, 'dm'>,
    inReplyTo: input.inReplyTo ?? null,
    containerCreatedAt: typeof input.state?.containerCreatedAt === 'string' ? input.state.containerCreatedAt : null,
  };

  const media = input.media ?? [];
  if (media.some((m) => !m.publicUrl))
    return rejectedInput(`${label} fetches media by URL: each file needs a public URL.`, startedAt);
  let containerId = typeof input.state?.containerId === 'string' ? input.state.containerId : undefined;
  let lastRaw: RawOutcome = NOT_CALLED;
  if (containerId) {
    const kept = { containerId };
    const read = await graph.containerStatus(containerId, budget.options());
    lastRaw = read.raw;
    if (read.kind === 'unreadable') {
      const c = classify(read.raw);
      // A read publishes nothing: only a definite refusal (a revoked token) fails the delivery.
      if (c.outcome === 'failed') return done({ ...c, evidence: { ...c.evidence, ...kept } }, read.raw);
      return done(
        {
          outcome: 'not_sent',
          rule: `${name}-status-unreadable`,
          httpStatus: c.httpStatus,
          retryAt: c.retryAt ?? new Date(Date.now() + CONTAINER_RETRY_MS),
          reason: `The media container’s status could not be read (${c.reason}); nothing was published.`,
          evidence: { ...c.evidence, ...kept },
        },
        read.raw,
      );
    }
    // A container the platform no longer knows, or one that expired, was never published (a published one reads
    // PUBLISHED): Threads makes another at once; Instagram asks the reconciler first, whose reads of the account's
    // posts (two, after the quiet period, other deliveries' posts set aside) prove no copy is there; its release
    // drops the kept container (ReadBack `dropOnRelease`), and only then does an attempt make a new one.
    if (read.kind === 'missing' || read.status === 'EXPIRED') {
      if (flow.onExpired === 'prove-absence')
        return done(unproven(graph.network.name, graph.network.label, read.kind === 'missing', kept), read.raw);
      containerId = undefined;
    } else if (read.status === 'PUBLISHED')
      return done(
        await alreadyPublished(graph, wanted, containerId, budget, flow.listable(input.state ?? {})),
        read.raw,
      );
    else if (read.status === 'IN_PROGRESS')
      return done(
        {
          outcome: 'not_sent',
          rule: `${name}-container-in-progress`,
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
          rule: `${name}-container-error`,
          reason: `${label} could not process the media container (${read.errorMessage ?? 'no reason given'}).`,
          evidence: { ...kept, errorMessage: read.errorMessage },
        },
        read.raw,
      );
  }

  // A container made in this attempt (not one kept from an earlier one) is read before it is published.
  const createdNow = !containerId;
  if (!containerId) {
    if (budget.left() < MIN_STEP_MS) return done(noTimeLeft(name), lastRaw);
    let children: string[] | undefined;
    if (media.length > 1) {
      // Items the platform processes after answering (Instagram's videos) must read FINISHED before the carousel
      // can name them: they are kept on the delivery, and a later attempt reads them again instead of making more.
      const processes = flow.itemsProcess?.(media) ?? false;
      let kept = processes ? keptItems(input.state, media.length) : null;
      for (;;) {
        if (kept) children = kept;
        else {
          // Carousel items are containers too, never posts: one that fails or goes unanswered is simply not used.
          children = [];
          for (const item of media) {
            const itemRaw = await graph.createContainer(flow.itemParams(item), budget.options());
            const made = classify(itemRaw);
            if (made.outcome !== 'sent') return done(containerNotCreated(name, made), itemRaw);
            children.push(made.externalId!);
            if (budget.left() < MIN_STEP_MS) return done(noTimeLeft(name), itemRaw);
          }
        }
        if (!processes) break;
        const items = children.join(',');
        if (!kept && !(await keepState(input, { ...flow.keep?.(input), items })))
          return done(claimLost(name, { items }), lastRaw);
        const ready = await itemsReady(graph, children, budget);
        // Kept items that expired (or are gone) can never be named: new ones replace them, once.
        if (ready === 'gone' && kept) {
          kept = null;
          continue;
        }
        if (ready === 'gone') return done({ ...noTimeLeft(name), evidence: { items } }, lastRaw);
        if (ready)
          return done({ ...ready.classification, evidence: { ...ready.classification.evidence, items } }, ready.raw);
        if (budget.left() < MIN_STEP_MS) return done({ ...noTimeLeft(name), evidence: { items } }, lastRaw);
        break;
      }
    }
    const raw = await graph.createContainer(flow.mainParams(input, media, children), budget.options());
    const created = classify(raw);
    if (created.outcome !== 'sent') return done(containerNotCreated(name, created), raw);
    containerId = created.externalId!;
    lastRaw = raw;
    // Kept on the delivery before anything public happens; a lost claim stops here (another worker may own it).
    const saved = await keepState(input, {
      ...flow.keep?.(input),
      containerId,
      containerCreatedAt: new Date().toISOString(),
    });
    if (!saved)
      return done(
        {
          outcome: 'not_sent',
          rule: `${name}-claim-lost`,
          reason: 'The claim on this delivery was lost before publishing, so the container was not published.',
          evidence: { containerId, unsavedContainer: true },
        },
        raw,
      );
  }

  if (flow.processesMedia(media) && createdNow) {
    // The platform fetches and processes media after answering: a container still IN_PROGRESS cannot be published yet.
    // It is kept on the delivery, so the next attempt reads its status before anything else (above).
    const read = await graph.containerStatus(containerId, budget.options());
    if (read.kind === 'status' && read.status !== 'FINISHED')
      return done(
        read.status === 'ERROR'
          ? {
              outcome: 'failed',
              rule: `${name}-container-error`,
              reason: `${label} could not process the media (${read.errorMessage ?? 'no reason given'}).`,
              evidence: { containerId, errorMessage: read.errorMessage },
            }
          : {
              outcome: 'not_sent',
              rule: `${name}-container-in-progress`,
              retryAt: new Date(Date.now() + CONTAINER_RETRY_MS),
              reason: `${label} is still processing the media; nothing was published yet.`,
              evidence: { containerId },
            },
        read.raw,
      );
  }
  if (budget.left() < MIN_STEP_MS) return done({ ...noTimeLeft(name), evidence: { containerId } }, lastRaw);
  const wait = flow.beforePublish ? await flow.beforePublish(budget) : null;
  if (wait) return done({ ...wait, evidence: { ...wait.evidence, containerId } }, lastRaw);
  if (budget.left() < MIN_STEP_MS) return done({ ...noTimeLeft(name), evidence: { containerId } }, lastRaw);
  const raw = await graph.publishContainer(containerId, budget.options());
  const published = classify(raw);
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
      return done(await alreadyPublished(graph, wanted, containerId, budget, flow.listable(input.state ?? {})), raw);
    if (read.kind === 'status' && read.status === 'EXPIRED')
      return done(
        {
          outcome: 'not_sent',
          rule: `${name}-container-expired`,
          httpStatus: published.httpStatus,
          reason: 'The media container expired before it was published; a new one is made next time.',
          evidence,
        },
        raw,
      );
  }
  return done({ ...published, evidence }, raw);
}

/**
 * PUBLISHED: the post is out. Its media id comes from the account's listing; until it is listed (read lag) the
 * outcome is ambiguous, and the reconciler finds the post (the container reads PUBLISHED: never published again).
 * The container's id never stands for the post: it is no post to link, reply to or delete.
 */
async function alreadyPublished(
  graph: Graph,
  wanted: WantedPost,
  containerId: string,
  budget: CallBudget,
  listable: boolean,
): Promise<Classification> {
  const { name, label } = graph.network;
  // A post no listing shows by its text (a Story) is never looked for there: another post could match.
  const post =
    listable && budget.left() >= MIN_STEP_MS ? await findPublishedPost(graph, wanted, budget.options()) : null;
  if (!post)
    return {
      outcome: 'ambiguous',
      rule: `${name}-container-published-unlisted`,
      reason:
        'Already published by an earlier attempt (the container reads PUBLISHED), but the post is not listed yet: reconciliation finds it.',
      evidence: { containerId, status: 'PUBLISHED', listed: false },
    };
  return {
    outcome: 'sent',
    rule: `${name}-container-published`,
    externalId: post.id,
    ...(post.url ? { url: post.url } : {}),
    reason: `Already published by an earlier attempt (the container reads PUBLISHED); found in the account’s ${label} posts.`,
    evidence: { containerId, status: 'PUBLISHED', listed: true },
  };
}

/**
 * Step (a) without a container id. An unknown outcome here is not ambiguous: a container is not a post, and
 * an orphan one is never published (only its id can publish it, and we never learned it); it expires in 24 h.
 */
function containerNotCreated(name: string, c: Classification): Classification {
  if (c.outcome !== 'ambiguous') return c;
  return {
    ...c,
    outcome: 'not_sent',
    rule: `${name}-container-not-created`,
    reason: `Creating the media container had no clear answer (${c.reason}); a container is not a post, so nothing was published.`,
  };
}

/** Keeps provider state on the delivery (fenced by the claim): false when the claim was lost. */
async function keepState(input: PublishInput, state: ProviderState): Promise<boolean> {
  return input.saveState ? await input.saveState(state).catch(() => false) : true;
}

function claimLost(name: string, evidence: Record<string, unknown>): Classification {
  return {
    outcome: 'not_sent',
    rule: `${name}-claim-lost`,
    reason: 'The claim on this delivery was lost before publishing, so nothing was published.',
    evidence,
  };
}

/** The carousel items an earlier attempt made and kept, when there is one per medium. */
function keptItems(state: ProviderState | undefined, count: number): string[] | null {
  const items = typeof state?.items === 'string' ? state.items.split(',').filter(Boolean) : [];
  return items.length === count ? items : null;
}

/**
 * Every item FINISHED: null. `gone`: one expired or is unknown (none can be named any more). Else the outcome that
 * holds the delivery: one still processing (not_sent, later), one failed (failed, with its error), or one that could
 * not be read (not_sent: a read publishes nothing).
 */
async function itemsReady(
  graph: Graph,
  items: string[],
  budget: CallBudget,
): Promise<{ classification: Classification; raw: RawOutcome } | 'gone' | null> {
  const { name, label } = graph.network;
  for (const item of items) {
    const read = await graph.containerStatus(item, budget.options());
    if (read.kind === 'status' && read.status === 'FINISHED') continue;
    if (read.kind === 'missing' || (read.kind === 'status' && read.status === 'EXPIRED')) return 'gone';
    if (read.kind === 'status' && read.status === 'ERROR')
      return {
        raw: read.raw,
        classification: {
          outcome: 'failed',
          rule: `${name}-container-error`,
          reason: `${label} could not process a carousel item (${read.errorMessage ?? 'no reason given'}).`,
          evidence: { item, errorMessage: read.errorMessage },
        },
      };
    return {
      raw: read.raw,
      classification: {
        outcome: 'not_sent',
        rule: `${name}-container-in-progress`,
        retryAt: new Date(Date.now() + CONTAINER_RETRY_MS),
        reason: `${label} is still processing a carousel item; nothing was published yet.`,
        evidence: { item, status: read.kind === 'status' ? read.status : read.kind },
      },
    };
  }
  return null;
}

/**
 * A kept container that expired or is gone, on a network that replaces one only after proof (Instagram): ambiguous,
 * so the reconciler reads the account's posts (or, for a post no listing shows, sends it to review).
 */
function unproven(name: string, label: string, missing: boolean, kept: Record<string, unknown>): Classification {
  return {
    outcome: 'ambiguous',
    rule: `${name}-expired-container-unproven`,
    reason: `The media container ${missing ? `is no longer known to ${label}` : 'expired'}: a new one is made only once the account’s posts show no copy.`,
    evidence: { ...kept, status: missing ? 'MISSING' : 'EXPIRED' },
  };
}

function noTimeLeft(name: string): Classification {
  return {
    outcome: 'not_sent',
    rule: `${name}-no-time-left`,
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

import { NO_SOCKET, type HttpRequest } from '@/lib/net/send';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { RawOutcome } from '@/lib/providers/types';
import { isConnectionReset } from '@/sandbox/behaviour/faults';
import { createMemorySandboxStore } from '@/sandbox/store/memory-store';
import { handleSandboxRequest } from '@/sandbox/http/router';
import type { NewSandboxPost, SandboxDeps, SandboxPost, SandboxStore } from '@/sandbox/store/types';
import type { Actor, Simulation } from './scheduler';

export const SIM_ORIGIN = 'http://sim.invalid';

// The store steps of a write, each one a point where the platform may pause (processing time) and where
// another request may overtake it: Mastodon's key check, the insert, the key store, the lock; Threads' container
// and its publish (where the post is made).
const WRITE_STEPS = new Set<PropertyKey>([
  'getIdempotentPostId',
  'insertPost',
  'createPost',
  'setIdempotentPostId',
  'tryLock',
  'createContainer',
  'publishContainer',
]);

/**
 * The sandbox network in this process (its own request handlers and in-memory store), with the
 * platform's steps under the simulation's control: a write's store steps and its answer are scheduled
 * events, so a post may be created long after the client gave up (processing time) or be answered
 * never; on accounts with read lag a new post is listed only after a scheduled event. A time jump
 * finishes all of that: every request older than it has ended and every post is listed.
 */
export function simulatedPlatform(sim: Simulation, options: { random: () => number }) {
  const store = createMemorySandboxStore();
  const lagged = new Set<string>();
  const slowShares = new Map<string, number>();
  const lateShares = new Map<string, number>();
  const hidden = new Set<string>();
  const created: SandboxPost[] = [];
  const foreign: SandboxPost[] = [];
  const open = new Set<() => void>();

  /** The store as one request sees it: `epoch` is the jump count when it arrived. */
  function storeFor(epoch: number): SandboxStore {
    let slow: boolean | undefined; // drawn at the request's first write step
    let late: boolean | undefined;
    // A request that a time jump has overtaken runs to its end at once: the allowance has passed.
    const step = (label: string) => (sim.jumps > epoch ? Promise.resolve(true) : sim.platformEvent(label));
    const writeStep = async (label: string, accountId: string | undefined) => {
      slow ??= options.random() < (slowShares.get(accountId ?? '') ?? 0);
      late ??= options.random() < (lateShares.get(accountId ?? '') ?? 0);
      if (slow && sim.jumps === epoch) await sim.untilJump();
      // Past the allowance and two reads: three jumps after it arrived.
      if (late) await sim.untilJumps(epoch + 3);
      await step(label);
    };
    return new Proxy(store, {
      get(target, prop) {
        const member = Reflect.get(target, prop, target) as unknown;
        if (typeof member !== 'function') return member;
        const method = member as (...args: unknown[]) => Promise<unknown>;
        if (prop === 'listPosts') {
          return async (...args: unknown[]) =>
            ((await method.apply(target, args)) as SandboxPost[]).filter((p) => !hidden.has(p.id));
        }
        if (!WRITE_STEPS.has(prop)) return (...args: unknown[]) => method.apply(target, args);
        return async (...args: unknown[]) => {
          await writeStep(String(prop), writeAccountId(args));
          const result = await method.apply(target, args);
          const post = insertedPost(prop, result);
          if (post) {
            created.push(post);
            if (lagged.has(post.accountId)) {
              hidden.add(post.id);
              void step(`post ${post.id} listed`).then(() => hidden.delete(post.id));
            }
          }
          return result;
        };
      },
    });
  }

  const depsFor = (epoch: number): SandboxDeps =>
    ({
      store: storeFor(epoch),
      resolveScope: async () => [],
      hangMs: 3_600_000, // a "timeout" fault holds the request until the client gives up
      lockWaitMs: 0, // a same-key write that finds the lock held answers 503 at once (no real sleeping)
      random: options.random,
    }) as SandboxDeps;

  return {
    store,
    /** Posts on this account appear in listings only after a scheduled event (or a time jump). */
    setReadLag(accountId: string) {
      lagged.add(accountId);
    },
    /** This share of the account's writes is created only after our call timed out (at the next time jump). */
    setSlowShare(accountId: string, share: number) {
      slowShares.set(accountId, share);
    },
    /** This share of the account's writes is created three time jumps later, beyond any allowance. */
    setLateShare(accountId: string, share: number) {
      lateShares.set(accountId, share);
    },
    /** Every copy the platform ever stored through the API, as its own records say (not our database). */
    allPosts: () => [...created],
    /** A post the account made elsewhere (another app, by hand): on the platform, never one of our copies. */
    async addForeignPost(input: NewSandboxPost) {
      const post = await store.insertPost(input);
      if (post) foreign.push(post);
      return post;
    },
    /** After a time jump: the platform's clock moves with our database's (timestamps shift back). */
    shiftBack(ms: number) {
      for (const post of [...created, ...foreign]) post.createdAt = new Date(post.createdAt.getTime() - ms);
    },
    transport:
      (actor: Actor): ProviderTransport =>
      (request) =>
        send(sim, actor, request, depsFor, open),
    /** Ends every request still held (timeout faults hang until the client leaves). */
    close() {
      for (const abort of open) abort();
      open.clear();
    },
  };
}

/** The account a store write step is for: `(input)` with `input.account` or `input.accountId`, or `(accountId, …)`. */
function writeAccountId(args: unknown[]): string | undefined {
  const [first] = args;
  if (typeof first === 'string') return first;
  const input = first as { account?: { id?: string }; accountId?: string } | undefined;
  return input?.account?.id ?? input?.accountId;
}

function insertedPost(prop: PropertyKey, result: unknown): SandboxPost | null {
  if (!result || typeof result !== 'object') return null;
  if (prop === 'insertPost' && 'id' in result) return result as SandboxPost;
  if (prop === 'createPost' && (result as { status?: string }).status === 'created')
    return (result as { post: SandboxPost }).post;
  if (prop === 'publishContainer' && (result as { status?: string }).status === 'published')
    return (result as { post: SandboxPost }).post;
  return null;
}

async function send(
  sim: Simulation,
  actor: Actor,
  request: HttpRequest,
  depsFor: (epoch: number) => SandboxDeps,
  open: Set<() => void>,
): Promise<RawOutcome> {
  const path = new URL(request.url).pathname.replace(/^.*\/api\/sandbox/, '');
  const label = `${request.method} ${path.split('?')[0]}`;
  await sim.gate(actor, `send ${label}`);
  if (request.signal?.aborted) {
    return {
      type: 'error',
      code: 'ABORTED_BEFORE_SEND',
      name: 'AbortError',
      message: 'Canceled before the request was sent',
      timedOut: false,
      connection: NO_SOCKET,
    };
  }
  // The process stalled past a time jump since its last database step: its call timed out unsent.
  if (actor.jumpsSeen < sim.jumps) return timedOut(0);
  const epoch = sim.jumps;
  const controller = new AbortController();
  const abort = () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  open.add(abort);
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  const web = new Request(request.url, {
    method: request.method,
    headers: {
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...request.headers,
    },
    body,
    signal: controller.signal,
  });
  sim.handling++;
  const handled = handleSandboxRequest(web, depsFor(epoch)).finally(() => sim.handling--);
  const answered = handled.then(async (response) => {
    if (sim.jumps === epoch) await sim.platformEvent(`answer ${label}`);
    return response;
  });
  // The client's timeout is one more scheduled event racing the answer; free-running, it is real time.
  let timer: NodeJS.Timeout | undefined;
  const timeout = sim.free
    ? new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 5_000)))
    : sim.platformEvent(`client timeout ${label}`).then(() => null);
  const response = await Promise.race([answered, timeout]);
  clearTimeout(timer);
  open.delete(abort);
  if (!response) {
    abort();
    return timedOut(body?.length ?? 1);
  }
  if (isConnectionReset(response))
    return {
      type: 'error',
      code: 'ECONNRESET',
      name: 'Error',
      message: 'socket hang up',
      timedOut: false,
      connection: connected(body?.length ?? 1),
    };
  const headers = Object.fromEntries(response.headers);
  try {
    const text = await sim.track(response.text());
    return { type: 'response', status: response.status, headers, body: parseJson(text), bodyText: text.slice(0, 2000) };
  } catch (error) {
    return {
      type: 'body-error',
      status: response.status,
      headers,
      code: 'ECONNRESET',
      message: (error as Error).message,
      timedOut: false,
    };
  }
}

const connected = (bytesWritten: number) => ({
  socketAssigned: true,
  reused: false,
  tls: false,
  connected: true,
  secured: false,
  bytesWritten,
});

function timedOut(bytesWritten: number): RawOutcome {
  return {
    type: 'error',
    code: null,
    name: 'TimeoutError',
    message: 'The operation was aborted due to timeout',
    timedOut: true,
    connection: connected(bytesWritten),
  };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

import { z } from 'zod';
import { requestLimitReached, temporarilyUnavailable } from '@/sandbox/dialects/threads/errors';
import { internalError, rateLimitExceeded } from '@/sandbox/dialects/tiktok/errors';
import { backendError, rateLimitExceeded as googleRateLimited } from '@/sandbox/dialects/youtube/errors';
import { PROFILES, type Platform, type Profile, type SandboxDeps } from '@/sandbox/store/types';

const rate = z.coerce.number().min(0, 'A probability from 0 to 1').max(1, 'A probability from 0 to 1').default(0);
const millis = (max: number) =>
  z.coerce.number().int('Whole milliseconds').min(0, 'At least 0 ms').max(max, `At most ${max} ms`).default(0);

/**
 * PUT /api/sandbox/faults: a full replacement of the settings (missing rates are 0, a missing profile is
 * each account's platform default: X → `x`, Mastodon → `mastodon-modern`).
 */
export const faultsInput = z.object({
  accountId: z.string().trim().min(1).optional(),
  profile: z.enum(PROFILES, `One of ${PROFILES.join(', ')}`).optional(),
  latencyMs: millis(60_000),
  timeoutBeforeCommit: rate,
  timeoutAfterCommit: rate,
  errorAfterCommit: rate,
  resetAfterCommit: rate,
  rateLimited: rate,
  processingMs: millis(120_000),
  processingShare: z.coerce.number().min(0, 'A probability from 0 to 1').max(1, 'A probability from 0 to 1').default(1),
  readLagMs: millis(300_000),
  listingUnavailable: rate,
  inboundPerDay: z.coerce.number().int('A whole number').min(0, 'At least 0').max(500, 'At most 500 a day').default(0),
});
export type FaultsInput = z.output<typeof faultsInput>;

const DEFAULT_HANG_MS = 120_000;

/** Responses that stand for a dropped connection: the node server destroys the socket instead of answering. */
const resets = new WeakSet<Response>();

export function isConnectionReset(response: Response): boolean {
  return resets.has(response);
}

/**
 * A reset after commit. The standalone server destroys the socket (a real ECONNRESET); a Next route
 * handler cannot, so there the emulation is a 200 whose body stream fails after its first bytes:
 * the client sees "terminated" mid-body and still does not learn the post id.
 */
function connectionReset(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"data":'));
      setTimeout(() => controller.error(new Error('sandbox: connection reset after commit')), 10);
    },
  });
  const response = new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  resets.add(response);
  return response;
}

/** Holds the request until the client gives up (its abort signal) or the hang limit passes. */
function hang(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

/** Meta's Graph networks answer with Graph's error body. */
const isGraph = (platform: Platform) => platform === 'threads' || platform === 'instagram' || platform === 'facebook';

/** LinkedIn's error body (`{ status, message }`, a code on some). */
const linkedinError = (status: number, message: string, code?: string) =>
  json(status, { status, ...(code ? { code } : {}), message });

/** Each platform's own 429, with its own rate-limit headers. */
function rateLimitedResponse(platform: Platform, resetAt: Date): Response {
  // LinkedIn sends no rate-limit headers and no Retry-After; this is its short-lived (infrastructure) throttle.
  if (platform === 'linkedin') return linkedinError(429, 'Too Many Requests', 'TOO_MANY_REQUESTS');
  if (isGraph(platform)) return requestLimitReached();
  if (platform === 'tiktok') return rateLimitExceeded();
  if (platform === 'youtube') return googleRateLimited();
  if (platform === 'x') {
    return json(
      429,
      { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      {
        'x-rate-limit-limit': '100',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(Math.ceil(resetAt.getTime() / 1000)),
      },
    );
  }
  if (platform === 'bluesky') {
    // xrpc-server's rate limiter: RateLimit-* headers, the reset in epoch seconds.
    return json(
      429,
      { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
      {
        'ratelimit-limit': '5000',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(Math.ceil(resetAt.getTime() / 1000)),
        'ratelimit-policy': '5000;w=3600',
      },
    );
  }
  return json(
    429,
    { error: 'Too many requests' },
    { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetAt.toISOString() },
  );
}

function badGateway(platform: Platform): Response {
  if (platform === 'linkedin') return linkedinError(502, 'Bad Gateway');
  if (isGraph(platform)) return temporarilyUnavailable(502);
  if (platform === 'tiktok') return internalError(502);
  if (platform === 'youtube') return backendError(502);
  return platform === 'x'
    ? json(502, { title: 'Bad Gateway', detail: 'Bad Gateway', type: 'about:blank', status: 502 })
    : json(502, { error: 'Bad Gateway' });
}

/** What a write's commit needs to know: the account's profile and when the platform creates the post. */
export type CommitContext = { profile: Profile; createAt: number };

/**
 * Wraps one write (publish) with the account's faults. Before-commit faults never call `commit`;
 * after-commit faults apply only when `commit` stored something (a 2xx), exactly like a platform
 * that wrote the post and then lost the answer. A slow write (`processingMs`, for a share of writes)
 * is created that long after the request arrived, whether or not the client still waits.
 */
export async function withWriteFaults(
  deps: SandboxDeps,
  request: Request,
  target: { platform: Platform; accountId: string },
  commit: (context: CommitContext) => Promise<Response>,
): Promise<Response> {
  const arrivedAt = Date.now();
  const faults = await deps.store.getFaults(target.accountId);
  const roll = (p: number) => p > 0 && (deps.random ?? Math.random)() < p;
  const hangMs = deps.hangMs ?? DEFAULT_HANG_MS;
  const slow = faults.processingMs > 0 && (faults.processingShare >= 1 || roll(faults.processingShare));
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (roll(faults.rateLimited)) return rateLimitedResponse(target.platform, new Date(Date.now() + 60_000));
  if (roll(faults.timeoutBeforeCommit)) {
    await hang(request.signal, hangMs);
    if (target.platform === 'linkedin') return linkedinError(504, 'Gateway Timeout');
    if (isGraph(target.platform)) return temporarilyUnavailable(504);
    if (target.platform === 'tiktok') return internalError(504);
    if (target.platform === 'youtube') return backendError(504);
    return json(
      504,
      target.platform === 'x' ? { title: 'Gateway Timeout', status: 504 } : { error: 'Gateway Timeout' },
    );
  }
  const response = await commit({ profile: faults.profile, createAt: arrivedAt + (slow ? faults.processingMs : 0) });
  if (!response.ok) return response;
  if (roll(faults.timeoutAfterCommit)) {
    await hang(request.signal, hangMs);
    return response; // too late: the client has given up (unless it waits longer than the hang limit)
  }
  if (roll(faults.errorAfterCommit)) return badGateway(target.platform);
  if (roll(faults.resetAfterCommit)) return connectionReset();
  return response;
}

/**
 * A listing read (X user timeline, Mastodon account statuses) with the account's read faults: latency,
 * `listingUnavailable` (the platform's 503) and `readLagMs` (posts newer than that are not listed yet).
 * Returns the instant up to which posts are listed, or the 503 to answer.
 */
export async function withListingFaults(
  deps: SandboxDeps,
  target: { platform: Platform; accountId: string },
): Promise<{ createdUpTo: Date; profile: Profile } | Response> {
  const faults = await deps.store.getFaults(target.accountId);
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (faults.listingUnavailable > 0 && (deps.random ?? Math.random)() < faults.listingUnavailable)
    return serviceUnavailable(target.platform);
  return { createdUpTo: new Date(Date.now() - faults.readLagMs), profile: faults.profile };
}

export function serviceUnavailable(platform: Platform): Response {
  if (platform === 'linkedin') return linkedinError(503, 'Service Unavailable');
  if (isGraph(platform)) return temporarilyUnavailable(503);
  if (platform === 'tiktok') return internalError(503);
  if (platform === 'youtube') return backendError(503);
  return platform === 'x'
    ? json(503, { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 })
    : json(503, { error: 'There was a temporary problem serving your request, please try again' });
}

export { json };

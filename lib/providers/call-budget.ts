import { DEFAULT_TIMEOUT_MS } from '@/lib/net/send';

export type CallOptions = { timeoutMs?: number; signal?: AbortSignal };

/**
 * One publish attempt's time, for clients that make several requests per attempt (Threads, TikTok): every step
 * shares the caller's whole-call budget, so the attempt ends before the lease does, as the reconciler's quiet
 * period assumes.
 */
export function callBudget(timeoutMs: number | undefined, signal?: AbortSignal) {
  const deadline = Date.now() + (timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return {
    left: () => deadline - Date.now(),
    options: (): CallOptions => ({ timeoutMs: Math.max(1, deadline - Date.now()), signal }),
  };
}

export type CallBudget = ReturnType<typeof callBudget>;

/** A read's own timeout and signal, from the caller's input (reconciler reads, listings). */
export const callOptions = (input: { timeoutMs?: number; signal?: AbortSignal }): CallOptions => ({
  timeoutMs: input.timeoutMs,
  signal: input.signal,
});

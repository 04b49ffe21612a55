/** Tuning of the webhook sender (lib/webhooks/send.ts); constants, as no self-hoster has needed to change them. */
export const WEBHOOK_DEFAULTS = {
  /** Messages claimed per batch; a batch is sent in parallel. */
  batchSize: 20,
  /** A claim's lease: longer than the call's timeout, so a live sender never loses its message mid-call. */
  leaseMs: 60_000,
  /** Whole-call budget of one POST (connect, send, answer). */
  timeoutMs: 10_000,
  /** How long one pass keeps claiming batches. */
  budgetMs: 20_000,
} as const;

/** The answer's first characters kept in the delivery log; the rest of the body is never stored. */
export const RESPONSE_EXCERPT_CHARS = 200;

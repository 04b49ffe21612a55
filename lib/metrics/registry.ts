import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's metrics. Counters and histograms count what this process did (every web and worker
 * instance is scraped on its own); the gauges set at scrape time read the shared database, so they
 * are the same on every instance.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    deliveries: new Gauge({
      name: 'semel_deliveries',
      help: 'Deliveries by status, all workspaces (read from the database at scrape time).',
      labelNames: ['status'],
      registers,
    }),
    ambiguous: new Gauge({
      name: 'semel_ambiguous_deliveries',
      help: 'Deliveries whose outcome is unknown and being reconciled (scrape time).',
      registers,
    }),
    oldestAmbiguousAge: new Gauge({
      name: 'semel_oldest_ambiguous_age_seconds',
      help: 'Seconds since the oldest ambiguous delivery became ambiguous; 0 when none (scrape time).',
      registers,
    }),
    reviewQueue: new Gauge({
      name: 'semel_review_queue_size',
      help: 'Deliveries on the review page: ambiguous or needs_review (scrape time).',
      registers,
    }),
    lateness: new Histogram({
      name: 'semel_delivery_lateness_seconds',
      help: 'From the post’s scheduled time to the publisher recording the delivery sent.',
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
    platformCallDuration: new Histogram({
      name: 'semel_platform_call_duration_seconds',
      help: 'Duration of one publishing call to a platform.',
      labelNames: ['provider', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    platformCalls: new Counter({
      name: 'semel_platform_calls_total',
      help: 'Publishing calls by provider, classified outcome and classifier rule.',
      labelNames: ['provider', 'outcome', 'rule'],
      registers,
    }),
    reconcileDecisions: new Counter({
      name: 'semel_reconcile_decisions_total',
      help: 'Reconciliation decisions written (fenced: not written, the claim was lost).',
      labelNames: ['decision'],
      registers,
    }),
    claimsSwept: new Counter({
      name: 'semel_claims_swept_total',
      help: 'Lapsed claims swept: released (no call started) or ambiguous (a call had started).',
      labelNames: ['result'],
      registers,
    }),
    idempotency: new Counter({
      name: 'semel_idempotency_requests_total',
      help: 'Keyed writes by outcome: executed, replayed, in_flight (409), mismatch (422), rejected (not stored).',
      labelNames: ['operation', 'outcome'],
      registers,
    }),
    jobRuns: new Counter({
      name: 'semel_job_runs_total',
      help: 'Background job runs started (scheduler and cron routes).',
      labelNames: ['job'],
      registers,
    }),
    jobFailures: new Counter({
      name: 'semel_job_failures_total',
      help: 'Background job runs that threw.',
      labelNames: ['job'],
      registers,
    }),
  };
}

type Holder = { semelMetrics?: ReturnType<typeof createMetrics> };
const holder = globalThis as Holder;

/** One set per process, on globalThis: Next dev reloads and separately bundled entry points (instrumentation, routes) share it. */
export function metrics() {
  holder.semelMetrics ??= createMetrics();
  return holder.semelMetrics;
}

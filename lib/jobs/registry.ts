import { evergreenJob } from './evergreen';
import { feedsJob } from './feeds';
import type { JobDefinition } from './job';
import { inboxJob } from './inbox';
import { clientReportsJob } from './client-reports';
import { metricsJob } from './metrics';
import { notificationsJob } from './notifications';
import { pruneIdempotencyKeysJob } from './prune-idempotency-keys';
import { pruneLoginAttemptsJob } from './prune-login-attempts';
import { pruneMediaJob } from './prune-media';
import { prunePlatformEventsJob } from './prune-platform-events';
import { prunePlatformReadsJob } from './prune-platform-reads';
import { pruneSessionsJob } from './prune-sessions';
import { pruneWebhooksJob } from './prune-webhooks';
import { purgeWorkspacesJob } from './purge-workspaces';
import { publishJob } from './publish';
import { reconcileJob } from './reconcile';
import { refreshTokensJob } from './refresh-tokens';
import { watchLateCopiesJob } from './watch-late-copies';
import { webhooksJob } from './webhooks';

/**
 * Every background job, in the order a scheduler pass runs the `'due'` ones (publish before reconcile, so a
 * pass settles what it just made ambiguous once that falls due). Adding a job: its module, plus one line here.
 */
export const jobs = [
  publishJob,
  reconcileJob,
  watchLateCopiesJob,
  pruneIdempotencyKeysJob,
  pruneLoginAttemptsJob,
  pruneSessionsJob,
  refreshTokensJob,
  webhooksJob,
  pruneWebhooksJob,
  pruneMediaJob,
  prunePlatformEventsJob,
  prunePlatformReadsJob,
  notificationsJob,
  purgeWorkspacesJob,
  inboxJob,
  evergreenJob,
  feedsJob,
  metricsJob,
  clientReportsJob,
] as const satisfies readonly JobDefinition[];

export type JobName = (typeof jobs)[number]['name'];

/** Cron URLs that run several jobs in one call (`/api/cron/maintenance`, older than the registry). */
export const jobAliases = {
  maintenance: ['prune-idempotency-keys', 'prune-login-attempts', 'prune-webhooks'],
} as const satisfies Record<string, readonly JobName[]>;

const byName = new Map<string, JobDefinition>(jobs.map((job) => [job.name, job]));
const aliases = new Map<string, readonly JobName[]>(Object.entries(jobAliases));

/** The job of that name, or null (a Map, so `constructor` and friends are not jobs). */
export function findJob(name: string): JobDefinition | null {
  return byName.get(name) ?? null;
}

/** The jobs an alias stands for, in order, or null when `name` is not an alias. */
export function aliasedJobs(name: string): JobDefinition[] | null {
  return aliases.get(name)?.map((aliased) => byName.get(aliased)!) ?? null;
}

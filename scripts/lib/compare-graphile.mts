// One side of npm run bench:compare, in its own process: the same deliveries published through graphile-worker, the
// job queue most Node teams would reach for. One job per delivery (job key = delivery id); the task selects its row,
// makes the platform call and records the outcome in one UPDATE. graphile-worker's job lock is its claim, so the
// deliveries wait in `publishing` (set by the bench before the run) and the task moves them to `sent`.
import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, run, runMigrations, type TaskList, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { providerClientForAccount, type ProviderClient, type ProviderName } from '@/lib/providers';
import { DEFAULT_PUBLISHER_TUNING } from '@/lib/publishing/config';
import { serveSide, type GraphileSideConfig } from './compare-protocol';

// Every statement sent while counting, graphile-worker's own and the task's (pg's Pool, which graphile-worker makes, sends through
// Client.prototype.query, so each statement passes here once).
let statements = 0;
let counting = false;
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) statements++;
  return clientQuery.apply(this, args);
} as typeof pg.Client.prototype.query;

// Warnings and errors only: logging every completed job would cost this side CPU that Semel's publisher does not spend.
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') console.error(`graphile-worker ${level}: ${message}`);
});

const SELECT_DELIVERY = `
  select d.status, d.account_id, p.text, a.provider, a.base_url, a.platform_user_id, a.credentials_encrypted
  from deliveries d join posts p on p.id = d.post_id join social_accounts a on a.id = d.account_id
  where d.id = $1`;
const RECORD_SENT = `
  update deliveries set status = 'sent', external_id = $2, external_url = $3, settled_at = now(), updated_at = now()
  where id = $1 and status = 'publishing'`;

type DeliveryRow = {
  status: string;
  account_id: string;
  text: string;
  provider: ProviderName;
  base_url: string;
  platform_user_id: string;
  credentials_encrypted: string;
};

await serveSide<GraphileSideConfig>(async (config) => {
  // Setup on the utils' pool, released before the run: its backends' commits are flushed before the bench counts.
  await runMigrations({ connectionString: config.url, logger });
  const utils = await makeWorkerUtils({ connectionString: config.url, logger });
  const ids = await utils.withPgClient(async (client) =>
    (await client.query<{ id: string }>(`select id from deliveries order by due_at, id`)).rows.map((r) => r.id),
  );
  const queued = performance.now();
  for (let i = 0; i < ids.length; i += 1000) {
    await utils.addJobs(
      ids.slice(i, i + 1000).map((id) => ({
        identifier: 'publish_delivery',
        payload: { deliveryId: id },
        jobKey: id,
        // A failed platform call is not retried: a retry after an unknown outcome would be a blind resend.
        maxAttempts: 1,
      })),
    );
  }
  const queueSeconds = (performance.now() - queued) / 1000;
  await utils.release();

  const events = new EventEmitter() as WorkerEvents;
  const clients = new Map<string, ProviderClient>();
  let sent = 0;
  let failed = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  let allSettled = () => {};
  const settled = new Promise<void>((resolve) => (allSettled = resolve));
  const settle = () => {
    if (sent + failed === ids.length) allSettled();
  };
  events.on('job:failed', ({ error }) => {
    failed++;
    if (failed <= 3) console.error(`graphile-worker side: a job failed: ${String(error)}`);
    settle();
  });

  const taskList: TaskList = {
    publish_delivery: async (payload, helpers) => {
      const { deliveryId } = payload as { deliveryId: string };
      peakInFlight = Math.max(peakInFlight, ++inFlight);
      try {
        const {
          rows: [row],
        } = await helpers.query<DeliveryRow>(SELECT_DELIVERY, [deliveryId]);
        if (row?.status !== 'publishing') throw new Error(`delivery ${deliveryId} is ${row?.status ?? 'missing'}`);
        let client = clients.get(row.account_id);
        if (!client) {
          // Semel's own Mastodon client (lib/providers): the same request over the same keep-alive node:http agent
          // (lib/net/send.ts) as Semel's publisher makes, with the same 10 s whole-call timeout.
          client = providerClientForAccount(
            {
              id: row.account_id,
              provider: row.provider,
              baseUrl: row.base_url,
              platformUserId: row.platform_user_id,
              credentialsEncrypted: row.credentials_encrypted,
            },
            { encryptionKey: config.encryptionKey, origin: config.origin },
          );
          clients.set(row.account_id, client);
        }
        const result = await client.publish({
          text: row.text,
          kind: 'post',
          idempotencyKey: deliveryId,
          timeoutMs: DEFAULT_PUBLISHER_TUNING.callTimeoutMs,
        });
        if (result.outcome !== 'sent') throw new Error(`${result.outcome}: ${result.reason}`);
        const recorded = await helpers.query(RECORD_SENT, [deliveryId, result.externalId ?? null, result.url ?? null]);
        if (recorded.rowCount !== 1) throw new Error(`delivery ${deliveryId}: outcome not recorded`);
        sent++;
        settle();
      } finally {
        inFlight--;
      }
    },
  };

  const batched = config.localQueueSize !== null;
  return {
    notes: { 'addJobs seconds': queueSeconds.toFixed(1) },
    publish: async () => {
      counting = true;
      const runner = await run({
        connectionString: config.url,
        // graphile-worker's advice for its pool: 10 or concurrentJobs + 2, whichever is larger.
        maxPoolSize: Math.max(10, config.concurrency + 2),
        taskList,
        parsedCronItems: [],
        noHandleSignals: true,
        logger,
        events,
        preset: {
          worker: {
            concurrentJobs: config.concurrency,
            ...(batched ? { localQueue: { size: config.localQueueSize! }, completeJobBatchDelay: 0 } : {}),
          },
        },
      });
      await settled;
      await runner.stop(); // waits for the last completions (a batch in flight) to be written; ends its pool
      counting = false;
      return { statements, sent, failed, notes: { 'peak tasks in flight': peakInFlight } };
    },
    close: async () => {},
  };
});

// One side of npm run bench:compare, in its own process: Semel's publisher as npm run bench runs it (the default
// tuning, `publishers` loops of publishDueDeliveries until a pass claims nothing) on deliveries already due.
import { benchPublisherOptions, countingPostgres, publishUntilDone } from './bench-support';
import { serveSide, type SemelSideConfig } from './compare-protocol';

await serveSide<SemelSideConfig>(async (config) => {
  const publisher = countingPostgres(config.url, 10);
  return {
    notes: {},
    publish: async () => {
      const totals = await publishUntilDone(publisher.db, config.publishers, () =>
        benchPublisherOptions({ encryptionKey: config.encryptionKey, origin: config.origin }),
      );
      return {
        statements: publisher.statements(),
        sent: totals.sent,
        failed: totals.claimed - totals.sent,
        notes: { outcomes: JSON.stringify(totals) },
      };
    },
    close: () => publisher.sql.end({ timeout: 5 }),
  };
});

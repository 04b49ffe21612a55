import { deleteEndedSessions } from '@/db/queries/sessions';
import { getEnv } from '@/lib/env';
import { deleteInBatches } from '@/db/queries/batches';
import { defineJob } from './job';

/** Deletes sessions that have ended (idle too long or past their absolute end): they are refused already. */
export const pruneSessionsJob = defineJob({
  name: 'prune-sessions',
  run: async (db, options: { idleHours: number; batchSize: number; maxBatches: number }) => ({
    prunedSessions: await deleteInBatches(
      (batchSize) => deleteEndedSessions(db, { idleHours: options.idleHours, batchSize }),
      options,
    ),
  }),
  defaults: () => ({ idleHours: getEnv().SESSION_IDLE_HOURS, batchSize: 1000, maxBatches: 100 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});

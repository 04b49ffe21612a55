import { pruneUnreferencedMedia } from '@/lib/media/prune';
import { getMediaStorage } from '@/lib/media/storage';
import { defineJob } from './job';

/** Uploads no post references after 24 h (and their bytes when nothing else names them) go, in short batches. */
export const pruneMediaJob = defineJob({
  name: 'prune-media',
  run: async (db, options: { batchSize: number; maxBatches: number }) =>
    pruneUnreferencedMedia(db, { ...options, storage: getMediaStorage() }),
  defaults: () => ({ batchSize: 500, maxBatches: 20 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});

import { pruneExpiredUploads, pruneUnreferencedMedia } from '@/lib/media/prune';
import { getMediaStorage } from '@/lib/media/storage';
import { defineJob } from './job';

/**
 * Uploads no post references after 24 h (and their bytes when nothing else names them) go, in short batches; so do
 * video uploads never finished within 24 h, with their partial files.
 */
export const pruneMediaJob = defineJob({
  name: 'prune-media',
  run: async (db, options: { batchSize: number; maxBatches: number }) => ({
    ...(await pruneUnreferencedMedia(db, { ...options, storage: getMediaStorage() })),
    ...(await pruneExpiredUploads(db, options)),
  }),
  defaults: () => ({ batchSize: 500, maxBatches: 20 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});

import type { Database } from '@/db/client';
import { deleteUnreferencedMedia } from '@/db/queries/media';
import { deleteExpiredMediaUploads } from '@/db/queries/media-uploads';
import type { MediaStorage } from './storage';
import { removeUploadFiles } from './tus';

/** An upload no post references is kept this long (the compose form and the request form attach within minutes). */
export const UNREFERENCED_MEDIA_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Removes uploads that no post references after 24 h (request-form images a client never sent, abandoned
 * compose uploads): their rows, then the bytes no row names any more — unless an upload rewrote them since.
 */
export async function pruneUnreferencedMedia(
  db: Database,
  options: { storage: MediaStorage; batchSize: number; maxBatches: number; now?: Date },
) {
  const before = new Date((options.now ?? new Date()).getTime() - UNREFERENCED_MEDIA_TTL_MS);
  let deleted = 0;
  let removedFiles = 0;
  for (let batch = 0; batch < options.maxBatches; batch++) {
    const pass = await deleteUnreferencedMedia(db, { before, limit: options.batchSize });
    deleted += pass.deleted;
    // After the rows' deletion committed. A file written since the cut-off is an upload of the same bytes whose
    // row may not be committed yet: it stays (a later pass takes it if that row never comes).
    for (const sha256 of pass.orphanedHashes)
      if (await options.storage.removeUnlessWrittenSince(sha256, before)) removedFiles += 1;
    if (pass.deleted < options.batchSize) break;
  }
  return { deleted, removedFiles };
}

/**
 * Removes resumable uploads that were never finished within 24 h (a tab closed mid-video), and refused ones: their
 * rows, then their files in the upload directory. A finish that holds a row right now keeps it.
 */
export async function pruneExpiredUploads(
  db: Database,
  options: { batchSize: number; maxBatches: number; now?: Date },
) {
  let removed = 0;
  for (let batch = 0; batch < options.maxBatches; batch++) {
    const ids = await deleteExpiredMediaUploads(db, { now: options.now ?? new Date(), limit: options.batchSize });
    await removeUploadFiles(ids);
    removed += ids.length;
    if (ids.length < options.batchSize) break;
  }
  return { expiredUploads: removed };
}

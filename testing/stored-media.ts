import { randomUUID } from 'node:crypto';
import type { Database } from '@/db/client';
import { insertMedia } from '@/db/queries/media';
import { checkImage } from '@/lib/media/image';
import type { MediaStorage } from '@/lib/media/storage';
import { probeVideo } from '@/lib/media/video';
import { storeVideoFile } from '@/lib/media/video-upload';
import { makeImage } from './images';

// Media rows as an upload leaves them, for tests and for scripts (the chaos run): nothing here imports a route, so a
// script outside Next can use it.

/** A stored image of the workspace, checked and stripped as an upload is (JPEG and PNG alternate unless `format`). */
export async function storedImage(
  db: Database,
  storage: MediaStorage,
  workspaceId: string,
  options: { index?: number; format?: 'jpeg' | 'png' } = {},
) {
  const i = options.index ?? 0;
  const checked = await checkImage(
    await makeImage(options.format ?? (i % 2 ? 'png' : 'jpeg'), { seed: Math.floor(Math.random() * 1000) }),
  );
  if ('ok' in checked) throw new Error(checked.message);
  const { sha256 } = await storage.put(checked.bytes);
  return insertMedia(db, {
    workspaceId,
    sha256,
    type: checked.type,
    width: checked.width,
    height: checked.height,
    size: checked.bytes.length,
    altText: `Alt ${i + 1} ${randomUUID().slice(0, 4)}`,
    createdBy: 'test',
  });
}

/** A stored video of the workspace, probed and with its cover, as a finished upload leaves it (lib/media/video-upload.ts). */
export async function storedVideo(db: Database, storage: MediaStorage, workspaceId: string, file: string) {
  const probe = await probeVideo(file);
  if (!probe.ok) throw new Error(probe.message);
  return insertMedia(db, {
    workspaceId,
    altText: '',
    createdBy: 'test',
    ...(await storeVideoFile(storage, file, probe.facts)),
  });
}

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import type { Database } from '@/db/client';
import type { MediaUpload } from '@/db/schema';
import { getEnv } from '@/lib/env';
import { finishVideoUpload, UPLOAD_TTL_MS, type FinishResult } from './video-upload';
import type { MediaStorage } from './media-storage';

export const UPLOADS_PATH = '/api/v1/uploads';
/** The media id of a finished upload, on the PATCH that finished it and on every HEAD after. */
export const MEDIA_ID_HEADER = 'Semel-Media-Id';
/** On the answers the route writes itself (a refusal, a finished upload), as tus writes them on its own. */
export const TUS_HEADERS = { 'Tus-Resumable': '1.0.0', 'Cache-Control': 'no-store' };

/** What the route decided about a request before tus sees it (who, which upload): read back in tus's hooks. */
type RequestContext = {
  db: Database;
  storage: MediaStorage;
  /** The id a creation gets (the row is written before the file). */
  newId?: string;
  upload?: MediaUpload;
  finished?: FinishResult;
};
const contexts = new WeakMap<Request, RequestContext>();

let cached: { directory: string; server: Server } | undefined;

/** Where unfinished uploads wait: SEMEL_DATA_DIR/uploads (one file and its JSON each, removed at the finish). */
export const uploadDirectory = () => path.resolve(getEnv().SEMEL_DATA_DIR, 'uploads');

/**
 * One tus server per process (its in-memory locker serialises the requests of one upload). Its bytes go to a file
 * per upload as they arrive, so a dropped connection keeps what came and the client resumes at that offset; the
 * finish runs when the last byte lands (lib/media/video-upload.ts).
 */
export function getTusServer(): Server {
  const directory = uploadDirectory();
  if (cached?.directory === directory) return cached.server;
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_TTL_MS });
  const server: Server = new Server({
    path: UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    // A second belt behind the route's check of Upload-Length: no body may grow a file past the limit.
    maxSize: () => getEnv().MEDIA_VIDEO_MAX_BYTES,
    namingFunction: (req) => {
      const id = contexts.get(req as unknown as Request)?.newId;
      if (!id) throw { status_code: 500, body: 'upload created without its row\n' };
      return id;
    },
    onUploadFinish: async (req, upload) => {
      const context = contexts.get(req as unknown as Request);
      if (!context?.upload) throw { status_code: 500, body: 'upload finished without its row\n' };
      const finished = await finishStoredUpload(context, upload.id);
      context.finished = finished;
      if (finished.kind === 'refused') throw { status_code: 422, body: `${finished.message}\n` };
      return { headers: { [MEDIA_ID_HEADER]: finished.media.id } };
    },
  });
  cached = { directory, server };
  return server;
}

/** The finish for an upload whose bytes are all in the tus store (the last PATCH, or a HEAD after a lost finish). */
function finishStoredUpload(context: RequestContext, id: string): Promise<FinishResult> {
  const server = getTusServer();
  const store = server.datastore as FileStore;
  return finishVideoUpload(context.db, context.upload!, {
    file: path.join(store.directory, id),
    storage: context.storage,
    discard: () => store.remove(id).catch(() => undefined), // already gone: a concurrent finish removed it
  });
}

/** A new upload's id: 32 hex digits, like tus's own. */
export const newUploadId = () => randomBytes(16).toString('hex');

/** Passes a request to tus with what the route decided about it; `finished` is set when this request finished it. */
export async function handleTus(request: Request, context: RequestContext) {
  contexts.set(request, context);
  const response = await getTusServer().handleWeb(request);
  return { response, finished: context.finished };
}

/** Finishes an upload whose bytes are complete but whose finish was lost (the server stopped, the answer was lost). */
export function finishCompleteUpload(context: RequestContext & { upload: MediaUpload }) {
  return finishStoredUpload(context, context.upload.id);
}

/** Expired unfinished uploads' files (the rows go with `deleteExpiredMediaUploads`). */
export async function removeUploadFiles(ids: string[]) {
  const store = getTusServer().datastore as FileStore;
  for (const id of ids) await store.remove(id).catch(() => undefined);
}

/** tus Upload-Metadata: `key base64value,key2 base64value2` (a key without a value is empty). */
export function parseUploadMetadata(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

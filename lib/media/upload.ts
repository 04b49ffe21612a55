import type { Database } from '@/db/client';
import { getRequireAltText, getWorkspaceMediaUsage, insertMedia } from '@/db/queries/media';
import { getEnv } from '@/lib/env';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotent } from '@/lib/idempotency/run-idempotent';
import { settleIdempotent, type KeyRefusal } from '@/lib/idempotency/settle';
import { logger } from '@/lib/logging/logger';
import type { FieldErrors } from '@/lib/posts/targets';
import { checkImage } from './image';
import { serializeMedia } from './serialize';
import { sha256Hex, type MediaStorage } from './storage';

export const CREATE_MEDIA_OPERATION = 'media.create';
/** X's limit, the smallest of the networks (Mastodon 1500, Bluesky 2000). */
export const MAX_ALT_TEXT = 1000;
/** Kept for a day at least (the key's minimum): an upload is used by a post within minutes. */
const RETENTION_MS = 24 * 60 * 60 * 1000;

export type UploadMediaContext = {
  workspaceId: string;
  idempotencyKey: string;
  /** `user:<id>` or `api_key:<id>`. */
  actor: string;
  storage: MediaStorage;
  requestId?: string;
};

export type UploadMediaResult =
  | { kind: 'ok'; mediaId: string; replayed: boolean; stored: { status: number; body: string } }
  | { kind: 'invalid'; errors: FieldErrors }
  | KeyRefusal;

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * An image upload, exactly once per (workspace, Idempotency-Key), like a post (docs/architecture.md#inbound-idempotency).
 * Every check comes before the key is taken (a refusal is not stored: the client fixes and resends); the
 * stripped bytes are stored by their hash before the row, so a row never names missing bytes, and bytes
 * stored for a request that then loses the race are simply shared with the winner's.
 */
export async function uploadMedia(
  db: Database,
  input: { file: Uint8Array | null; altText: string | undefined },
  context: UploadMediaContext,
): Promise<UploadMediaResult> {
  const altText = (input.altText ?? '').normalize('NFC').trim();
  const errors: FieldErrors = {};
  if (altText.length > MAX_ALT_TEXT) errors.altText = [`At most ${MAX_ALT_TEXT} characters`];
  else if (altText.includes('\u0000')) errors.altText = ['Must not contain the NUL character (U+0000)'];
  else if (!altText && (await getRequireAltText(db, { workspaceId: context.workspaceId })))
    errors.altText = ['Describe the image for people who cannot see it (this workspace requires alt text)'];
  if (!input.file) errors.file = ['Attach the image as the `file` part'];
  if (Object.keys(errors).length > 0 || !input.file) return { kind: 'invalid', errors };

  const checked = await checkImage(input.file);
  if ('ok' in checked) return { kind: 'invalid', errors: { file: [checked.message] } };
  // The workspace's storage quota, before any byte is stored (a soft limit: two uploads at once may both fit its
  // last bytes). Bytes the workspace already holds store nothing new, so a retried upload still replays.
  const quota = getEnv().MEDIA_QUOTA_BYTES_PER_WORKSPACE;
  const usage = await getWorkspaceMediaUsage(db, {
    workspaceId: context.workspaceId,
    sha256: sha256Hex(checked.bytes),
  });
  const used = usage.bytes;
  if (!usage.holdsThese && used + checked.bytes.length > quota)
    return {
      kind: 'invalid',
      errors: {
        file: [
          `This workspace's image storage is full (${mebibytes(used)} of ${mebibytes(quota)} used). ` +
            'Images no post uses are removed after 24 hours; or ask the admin to raise MEDIA_QUOTA_BYTES_PER_WORKSPACE.',
        ],
      },
    };
  const { sha256 } = await context.storage.put(checked.bytes);

  const outcome = await runIdempotent(
    db,
    {
      workspaceId: context.workspaceId,
      operation: CREATE_MEDIA_OPERATION,
      key: context.idempotencyKey,
      fingerprint: fingerprint({ file: sha256Hex(input.file), altText }),
    },
    async (tx) => {
      const row = await insertMedia(tx, {
        workspaceId: context.workspaceId,
        sha256,
        type: checked.type,
        width: checked.width,
        height: checked.height,
        size: checked.bytes.length,
        altText,
        createdBy: context.actor,
      });
      return {
        store: true,
        status: 201,
        body: JSON.stringify(serializeMedia(row)),
        resourceId: row.id,
        retainUntil: new Date(Date.now() + RETENTION_MS),
      };
    },
  );
  return settleIdempotent(outcome, {
    answered: ({ status, body, resourceId }, replayed): UploadMediaResult => {
      if (!replayed)
        logger.info(
          { requestId: context.requestId, mediaId: resourceId, workspaceId: context.workspaceId },
          'media stored',
        );
      return { kind: 'ok', mediaId: resourceId!, replayed, stored: { status, body } };
    },
    rejected: (rejection) => rejection,
  });
}

import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { MediaS3Config } from '@/lib/env';
import { SHA256, sha256Hex, type MediaStorage } from './media-storage';

/** A video goes up in parts of this size, two at a time: at most 16 MiB of it in memory. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

/** S3 keeps Last-Modified to the second: anything written within a second of `before` may be newer than it. */
const LAST_MODIFIED_PRECISION_MS = 1_000;

const notFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Garage, Cloudflare R2 …), addressed like the disk store by
 * SHA-256 (`<prefix>ab/cd/<sha256>`): the same bytes are one object, and a second PUT of them is harmless (it
 * replaces the object with identical bytes and a new Last-Modified, which keeps it from the pruner as rewriting the
 * file does on disk). Each PUT carries the bytes' SHA-256 as the checksum S3 verifies, so a body damaged on the way is
 * refused rather than stored under the address of other bytes.
 */
export function createS3MediaStorage(config: MediaS3Config, client = s3Client(config)): MediaStorage {
  const keyOf = (sha256: string) => `${config.prefix}${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  const sizeOf = async (sha256: string) => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: keyOf(sha256) }));
      return head.ContentLength ?? null;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  };
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: keyOf(sha256),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ChecksumSHA256: Buffer.from(sha256, 'hex').toString('base64'),
        }),
      );
      return { sha256 };
    },
    async putFile(file, sha256) {
      if (!SHA256.test(sha256)) throw new Error('not a SHA-256 address');
      // A multipart upload streamed from the file (one PUT when it is smaller than a part); each part carries a
      // SHA-256 that S3 verifies, so a part damaged on the way is refused.
      const upload = new Upload({
        client,
        params: {
          Bucket: config.bucket,
          Key: keyOf(sha256),
          Body: createReadStream(file),
          ChecksumAlgorithm: 'SHA256',
        },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
        leavePartsOnError: false,
      });
      await upload.done();
      const size = await sizeOf(sha256);
      if (size === null) throw new Error('the object is missing right after its upload');
      return { sha256, size };
    },
    async open(sha256, range) {
      if (!SHA256.test(sha256)) return null;
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket: config.bucket,
            Key: keyOf(sha256),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        if (!object.Body) return null;
        // `bytes 0-9/1234` on a range; the whole object's length otherwise.
        const total = object.ContentRange ? Number(object.ContentRange.split('/')[1]) : object.ContentLength;
        return { body: object.Body as Readable, size: total ?? 0 };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    size: (sha256) => (SHA256.test(sha256) ? sizeOf(sha256) : Promise.resolve(null)),
    async get(sha256) {
      if (!SHA256.test(sha256)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: keyOf(sha256) }));
        return object.Body ? await object.Body.transformToByteArray() : null;
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async removeUnlessWrittenSince(sha256, before) {
      if (!SHA256.test(sha256)) return false;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: keyOf(sha256) }));
        const modified = head.LastModified?.getTime() ?? Number.POSITIVE_INFINITY;
        if (modified + LAST_MODIFIED_PRECISION_MS > before.getTime()) return false;
        await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: keyOf(sha256) }));
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },
  };
}

function s3Client(config: MediaS3Config) {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Checksums only where this module asks for them (the PUT's SHA-256); S3-compatible servers differ in the rest.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

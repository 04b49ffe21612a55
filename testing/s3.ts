import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { MediaS3Config } from '@/lib/env';

/**
 * An S3-compatible server for tests (s3rver, in this process, its objects under `dir`), with one bucket, the config
 * the app would read from MEDIA_S3_* for it, and a client of its own to look at what was stored.
 */
export async function startTestS3(dir: string, prefix = 'media/') {
  const bucket = 'semel-media';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(dir, 's3rver'),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  const config: MediaS3Config = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, // s3rver's own pair: it checks signatures
    prefix,
    forcePathStyle: true,
  };
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint!,
    forcePathStyle: true,
    credentials: config.credentials!,
  });
  return {
    config,
    /** Every object key in the bucket. */
    keys: async () =>
      ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!),
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
}

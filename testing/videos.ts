import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { PublishMedia } from '@/lib/providers/types';
import { makeTestVideo } from './video';

/** A real small MP4's bytes (H.264 + AAC, 320×240, 30 fps), made by the packaged ffmpeg (testing/video.ts). */
export async function testVideoBytes(seconds = 3): Promise<Uint8Array> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-test-video-'));
  try {
    return new Uint8Array(readFileSync(await makeTestVideo(path.join(dir, 'clip.mp4'), { seconds })));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A video as the publisher hands it to a client: its bytes, and a signed URL when the platform pulls it. */
export function videoMedia(bytes: Uint8Array, options: { publicUrl?: string; durationMs?: number } = {}): PublishMedia {
  return {
    id: randomUUID(),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mimeType: 'video/mp4',
    altText: '',
    sizeBytes: bytes.length,
    read: async () => bytes,
    stream: async (range) => Readable.from([Buffer.from(range ? bytes.subarray(range.start, range.end + 1) : bytes)]),
    ...(options.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
    ...(options.publicUrl ? { publicUrl: () => options.publicUrl! } : {}),
  };
}

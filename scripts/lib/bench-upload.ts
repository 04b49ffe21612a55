import { spawn } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Upload } from 'tus-js-client';
import { createApiKey } from '@/db/queries/api-keys';
import type { Database } from '@/db/client';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { ffmpegPath } from '@/lib/media/video';
import { VIDEO_CHUNK_BYTES } from '@/lib/media/upload-chunk';

const run = promisify(execFile);
const MB = 1024 * 1024;

/** RSS now and at its peak (VmHWM), in bytes, of a Linux process. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * A real MP4 of about `megabytes` MB: a few seconds of noise at a high bit rate, then looped by copying its packets
 * (no re-encoding), so making 200 MB takes seconds.
 */
export async function makeLargeVideo(dir: string, megabytes: number): Promise<{ clip: string; video: string }> {
  const clip = path.join(dir, 'clip.mp4');
  const big = path.join(dir, `video-${megabytes}mb.mp4`);
  const ffmpeg = (...args: string[]) => run(ffmpegPath(), ['-v', 'error', '-y', ...args], { timeout: 600_000 });
  await ffmpeg(
    ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30,noise=alls=80:allf=t+u', '-f', 'lavfi', '-i', 'sine'],
    ...['-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '40M', '-maxrate', '40M', '-bufsize', '40M'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip],
  );
  const loops = Math.max(0, Math.ceil((megabytes * MB) / statSync(clip).size) - 1);
  await ffmpeg('-stream_loop', String(loops), '-i', clip, '-c', 'copy', big);
  return { clip, video: big };
}

/**
 * One video through the tus routes in their own process, chunked as the composer sends it (5 MiB PATCHes): MB/s from
 * the first request to the finish (probe, SHA-256, cover, store), and the server's RSS before and at its peak. A
 * smaller `warmUp` video goes first, so what the first upload sets up (connections, lazily loaded code) is in the
 * baseline and the growth is what the size of the video costs.
 */
export async function benchUpload(params: {
  db: Database;
  databaseUrl: string;
  workspaceId: string;
  file: string;
  warmUp: string;
  dataDir: string;
}) {
  const key = generateApiKey();
  await createApiKey(params.db, {
    workspaceId: params.workspaceId,
    name: 'bench upload',
    prefix: key.prefix,
    hash: key.hash,
  });
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/lib/upload-server.mts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: params.databaseUrl,
      SEMEL_DATA_DIR: params.dataDir,
      MEDIA_DIR: path.join(params.dataDir, 'media'),
      MEDIA_VIDEO_MAX_BYTES: String(2 * 1024 * MB),
      MEDIA_QUOTA_BYTES_PER_WORKSPACE: String(10 * 1024 * MB),
    },
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', stop);
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        const match = /listening (\S+)/.exec(chunk.toString());
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the upload server exited (${code})`)));
    });
    const send = (file: string) =>
      new Promise<string>((resolve, reject) => {
        const upload = new Upload(createReadStream(file), {
          endpoint: `${origin}/api/v1/uploads`,
          chunkSize: VIDEO_CHUNK_BYTES,
          uploadSize: statSync(file).size,
          headers: { authorization: `Bearer ${key.token}` },
          metadata: { filename: path.basename(file), filetype: 'video/mp4' },
          retryDelays: [],
          onAfterResponse: (_request, response) => {
            const id = response.getHeader('semel-media-id');
            if (id) resolve(id);
          },
          onError: reject,
        });
        upload.start();
      });
    await send(params.warmUp);
    const size = statSync(params.file).size;
    const before = memoryOf(child.pid!);
    const started = performance.now();
    const mediaId = await send(params.file);
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(child.pid!);
    return { mediaId, size, seconds, rssBefore: before.rss, peakRss: after.peak };
  } finally {
    stop();
  }
}

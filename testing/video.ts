import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ffmpegPath } from '@/lib/media/video';

const run = promisify(execFile);

/**
 * A real H.264/AAC MP4 made by the packaged ffmpeg: `seconds` long, `width`×`height`. `bitRate` (e.g. `8M`) makes it
 * large enough to upload in several chunks; noise keeps the encoder from compressing it away.
 */
export async function makeTestVideo(
  file: string,
  options: { seconds?: number; width?: number; height?: number; bitRate?: string; seed?: number } = {},
) {
  const { seconds = 2, width = 320, height = 240, bitRate, seed = 1 } = options;
  const picture = bitRate
    ? `testsrc=size=${width}x${height}:rate=30,noise=alls=60:allf=t+u:all_seed=${seed}`
    : `testsrc=size=${width}x${height}:rate=30`;
  await run(
    ffmpegPath(),
    [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', picture, '-f', 'lavfi', '-i', `sine=frequency=${400 + seed}`],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...(bitRate ? ['-b:v', bitRate, '-maxrate', bitRate, '-bufsize', bitRate] : []),
      ...['-c:a', 'aac', '-shortest', file],
    ],
    { timeout: 300_000 },
  );
  return file;
}

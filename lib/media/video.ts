import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { getEnv } from '@/lib/env';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/**
 * The binaries ship inside npm packages (@ffprobe-installer/*, @ffmpeg-installer/*: one package per platform, the
 * binary in its tarball), so nothing is downloaded at install time. FFPROBE_PATH / FFMPEG_PATH point elsewhere (a
 * Docker image's Debian ffmpeg, or a platform with no package).
 */
export function ffprobePath(): string {
  return getEnv().FFPROBE_PATH ?? (require('@ffprobe-installer/ffprobe') as { path: string }).path;
}
export function ffmpegPath(): string {
  return getEnv().FFMPEG_PATH ?? (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** What a network's limits are checked against (docs/publishing.md#video). */
export type VideoFacts = {
  /** `mov` for a QuickTime file (brand `qt`), `mp4` for the ISO ones. */
  container: 'mp4' | 'mov';
  durationMs: number;
  /** As displayed: rotation already applied (a phone's portrait video stored landscape with a 90° rotation). */
  width: number;
  height: number;
  /** Degrees clockwise the player turns the stored frames: 0, 90, 180 or 270. */
  rotation: 0 | 90 | 180 | 270;
  videoCodec: string;
  /** Frames per second, from the stream's average frame rate. */
  frameRate: number;
  /** null when the file has no audio track. */
  audioCodec: string | null;
  sizeBytes: number;
  bitRate: number | null;
};

export type VideoProbe = { ok: true; facts: VideoFacts } | { ok: false; message: string };

/** Containers and codecs accepted for upload (MP4/MOV, H.264/HEVC video, AAC audio). */
export const VIDEO_CODECS = ['h264', 'hevc'] as const;
export const AUDIO_CODECS = ['aac'] as const;

type ProbeJson = {
  format?: {
    format_name?: string;
    duration?: string;
    size?: string;
    bit_rate?: string;
    tags?: { major_brand?: string };
  };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    tags?: { rotate?: string };
    side_data_list?: { rotation?: number }[];
    disposition?: { attached_pic?: number };
  }[];
};

const PROBE_TIMEOUT_MS = 20_000;

/**
 * Reads a video file's facts with ffprobe (never trusting its name or declared type). Refuses, with a sentence a
 * person can act on, anything that is not an MP4/MOV with one H.264 or HEVC video track and AAC audio (or none).
 */
export async function probeVideo(file: string): Promise<VideoProbe> {
  let parsed: ProbeJson;
  try {
    const { stdout } = await run(
      ffprobePath(),
      // Only the local file: a name is never read as a URL or through another protocol.
      [
        '-v',
        'error',
        '-protocol_whitelist',
        'file',
        '-print_format',
        'json',
        '-show_format',
        '-show_streams',
        `file:${file}`,
      ],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
    );
    parsed = JSON.parse(stdout) as ProbeJson;
  } catch {
    return { ok: false, message: 'This file is not a video we can read (MP4 or MOV, H.264 or HEVC with AAC audio).' };
  }
  const formats = (parsed.format?.format_name ?? '').split(',');
  if (!formats.includes('mp4') && !formats.includes('mov'))
    return { ok: false, message: 'Upload an MP4 or MOV file (this one is not).' };
  const streams = parsed.streams ?? [];
  const videos = streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (videos.length !== 1) return { ok: false, message: 'The file must have exactly one video track.' };
  const video = videos[0]!;
  if (!(VIDEO_CODECS as readonly string[]).includes(video.codec_name ?? ''))
    return {
      ok: false,
      message: `The video is encoded as ${video.codec_name ?? 'an unknown codec'}; networks take H.264 or HEVC.`,
    };
  const audios = streams.filter((s) => s.codec_type === 'audio');
  const badAudio = audios.find((s) => !(AUDIO_CODECS as readonly string[]).includes(s.codec_name ?? ''));
  if (badAudio)
    return {
      ok: false,
      message: `The sound is encoded as ${badAudio.codec_name ?? 'an unknown codec'}; networks take AAC.`,
    };
  const audio = audios[0] ?? null;
  const durationMs = Math.round(Number(parsed.format?.duration ?? 0) * 1000);
  if (!(durationMs > 0) || !video.width || !video.height)
    return { ok: false, message: 'The video has no duration or no picture size we can read.' };

  const rotation = normaliseRotation(video);
  const turned = rotation === 90 || rotation === 270;
  return {
    ok: true,
    facts: {
      // ffprobe names one demuxer for both (`mov,mp4,m4a,…`); the file's brand tells them apart (`qt  ` is QuickTime).
      container: parsed.format?.tags?.major_brand?.trim() === 'qt' ? 'mov' : 'mp4',
      durationMs,
      width: turned ? video.height : video.width,
      height: turned ? video.width : video.height,
      rotation,
      videoCodec: video.codec_name!,
      frameRate: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate) ?? 0,
      audioCodec: audio?.codec_name ?? null,
      sizeBytes: Number(parsed.format?.size ?? 0),
      bitRate: parsed.format?.bit_rate ? Number(parsed.format.bit_rate) : null,
    },
  };
}

/** `30000/1001` → 29.97; null for `0/0`. */
function frameRate(value: string | undefined): number | null {
  const [num, den] = (value ?? '').split('/').map(Number);
  if (!num || !den) return null;
  return Math.round((num / den) * 1000) / 1000;
}

/**
 * The display rotation, clockwise. ffprobe reports it as a display-matrix side datum (counter-clockwise, negative
 * for clockwise turns) or, from older muxers, a `rotate` tag (clockwise).
 */
function normaliseRotation(video: NonNullable<ProbeJson['streams']>[number]): VideoFacts['rotation'] {
  const matrix = video.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const degrees = matrix !== undefined ? -matrix : Number(video.tags?.rotate ?? 0);
  const clockwise = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return clockwise as VideoFacts['rotation'];
}

/**
 * One frame as a JPEG (the cover a network shows before play, and the composer's preview), at `atMs` or, past the
 * end, at the first frame. ffmpeg applies the rotation, so the cover is upright.
 */
export async function extractCoverFrame(file: string, atMs = 0): Promise<Uint8Array> {
  const frame = (seconds: number) =>
    run(
      ffmpegPath(),
      // Only the local file (as above); the frame goes to stdout.
      [
        '-v',
        'error',
        '-protocol_whitelist',
        'file,pipe',
        '-ss',
        String(seconds),
        '-i',
        `file:${file}`,
        '-frames:v',
        '1',
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        'pipe:1',
      ],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024, encoding: 'buffer' },
    );
  let { stdout } = await frame(atMs / 1000);
  if (stdout.length === 0) ({ stdout } = await frame(0));
  if (stdout.length === 0) throw new Error('no frame could be read from the video');
  return new Uint8Array(stdout);
}

import type { ProviderMeta, VideoFormat } from '@/lib/providers/definition';
import type { VideoFacts } from './video';

/** What a format is checked against: a video's probe (`VideoFacts`, or the same facts read back from its media row). */
export type VideoCheckFacts = Pick<
  VideoFacts,
  'container' | 'durationMs' | 'width' | 'height' | 'videoCodec' | 'audioCodec' | 'frameRate' | 'sizeBytes'
>;

const CONTAINER_TYPES: Record<VideoCheckFacts['container'], string> = { mp4: 'video/mp4', mov: 'video/quicktime' };
const TYPE_NAMES: Record<string, string> = { 'video/mp4': 'MP4', 'video/quicktime': 'MOV' };
const CODEC_NAMES: Record<string, string> = { h264: 'H.264', hevc: 'HEVC', aac: 'AAC' };
/** Ratios people know by name (width ÷ height), shown as such; any other as a decimal. */
const NAMED_RATIOS: [number, string][] = [
  [9 / 16, '9:16'],
  [4 / 5, '4:5'],
  [1, '1:1'],
  [4 / 3, '4:3'],
  [1.91, '1.91:1'],
  [16 / 9, '16:9'],
];

const list = (names: readonly string[], of: Record<string, string>) => names.map((n) => of[n] ?? n).join(' or ');
const ratio = (value: number) =>
  NAMED_RATIOS.find(([r]) => Math.abs(r - value) < 0.005)?.[1] ?? `${Math.round(value * 100) / 100}:1`;
const megabytes = (bytes: number) =>
  bytes >= 1e9 ? `${Math.round(bytes / 1e8) / 10} GB` : `${Math.round(bytes / 1e5) / 10} MB`;

/** A limit as people say it: `15 minutes`, `90 seconds`, `1 hour`. */
function limitDuration(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms % 60_000 === 0 && ms >= 60_000) return plural(ms / 60_000, 'minute');
  return plural(Math.round(ms / 100) / 10, 'second');
}

/** A video's length as a player shows it: `0:03`, `16:02`, `1:02:03`. */
export function clockDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/**
 * Everything about this video that the format refuses, each a sentence a person can act on (`Reels: at most
 * 15 minutes (this video is 16:02)`); empty when the format takes it.
 */
export function videoProblems(facts: VideoCheckFacts, format: VideoFormat): string[] {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${format.label}: ${text}`);
  const type = CONTAINER_TYPES[facts.container];
  if (!format.types.includes(type))
    say(`${list(format.types, TYPE_NAMES)} files only (this video is ${TYPE_NAMES[type]})`);
  if (!format.videoCodecs.includes(facts.videoCodec))
    say(
      `${list(format.videoCodecs, CODEC_NAMES)} video only (this one is ${CODEC_NAMES[facts.videoCodec] ?? facts.videoCodec})`,
    );
  if (facts.audioCodec && !format.audioCodecs.includes(facts.audioCodec))
    say(
      format.audioCodecs.length === 0
        ? 'no sound (this video has a sound track)'
        : `${list(format.audioCodecs, CODEC_NAMES)} sound only (this one is ${CODEC_NAMES[facts.audioCodec] ?? facts.audioCodec})`,
    );
  if (facts.sizeBytes > format.maxBytes)
    say(`at most ${megabytes(format.maxBytes)} (this video is ${megabytes(facts.sizeBytes)})`);
  const length = clockDuration(facts.durationMs);
  if (facts.durationMs > format.maxDurationMs)
    say(`at most ${limitDuration(format.maxDurationMs)} (this video is ${length})`);
  if (facts.durationMs < format.minDurationMs)
    say(`at least ${limitDuration(format.minDurationMs)} (this video is ${length})`);
  const aspect = facts.width / facts.height;
  // A hair of tolerance: 1080×1920 is 9:16, and a 0.5625 limit must not refuse it for rounding.
  if (aspect < format.minAspectRatio - 1e-3 || aspect > format.maxAspectRatio + 1e-3)
    say(
      format.minAspectRatio === format.maxAspectRatio
        ? `${ratio(format.minAspectRatio)} only (this video is ${facts.width}×${facts.height}, ${ratio(aspect)})`
        : `an aspect ratio from ${ratio(format.minAspectRatio)} to ${ratio(format.maxAspectRatio)} (this video is ${facts.width}×${facts.height}, ${ratio(aspect)})`,
    );
  if (format.maxFrameRate !== undefined && facts.frameRate > format.maxFrameRate + 0.01)
    say(`at most ${format.maxFrameRate} frames per second (this video has ${facts.frameRate})`);
  if (format.minFrameRate !== undefined && facts.frameRate < format.minFrameRate - 0.01)
    say(`at least ${format.minFrameRate} frames per second (this video has ${facts.frameRate})`);
  const [long, short] = [Math.max(facts.width, facts.height), Math.min(facts.width, facts.height)];
  if (format.maxLongSide !== undefined && long > format.maxLongSide)
    say(`at most ${format.maxLongSide} pixels on the longer side (this video is ${facts.width}×${facts.height})`);
  if (format.minShortSide !== undefined && short < format.minShortSide)
    say(`at least ${format.minShortSide} pixels on the shorter side (this video is ${facts.width}×${facts.height})`);
  return problems;
}

export type NetworkVideoCheck =
  { supported: false; message: string } | { supported: true; format: VideoFormat; problems: string[] };

/**
 * A video against one network's `media.video`: its chosen format (`formatId`), else its first (the default), each
 * problem named by the network (`Instagram Reels: …`); a network without video says so.
 */
export function networkVideoCheck(
  meta: Pick<ProviderMeta, 'label' | 'media'>,
  facts: VideoCheckFacts,
  formatId?: string,
): NetworkVideoCheck {
  const formats = meta.media.video?.formats ?? [];
  const format = formats.find((f) => f.id === formatId) ?? formats[0];
  if (!format) return { supported: false, message: `${meta.label} takes no video` };
  return { supported: true, format, problems: videoProblems(facts, format).map((p) => `${meta.label} ${p}`) };
}

/** A media row's (or its serialized form's) facts, for the check; null for an image. */
export function videoFactsOf(media: {
  size: number;
  width: number;
  height: number;
  video?: { durationMs: number; container: string; videoCodec: string; audioCodec: string | null; frameRate: number };
}): VideoCheckFacts | null {
  if (!media.video) return null;
  return {
    container: media.video.container === 'mov' ? 'mov' : 'mp4',
    durationMs: media.video.durationMs,
    width: media.width,
    height: media.height,
    videoCodec: media.video.videoCodec,
    audioCodec: media.video.audioCodec,
    frameRate: media.video.frameRate,
    sizeBytes: media.size,
  };
}

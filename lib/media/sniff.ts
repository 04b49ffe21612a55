/** What Semel takes: JPEG, PNG, GIF and WebP images, decided by their bytes, never by a name (no sharp here: the sandbox uses it too). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
/** Videos, taken through resumable uploads only and decided by ffprobe (lib/media/video.ts). */
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime'] as const;
export type VideoType = (typeof VIDEO_TYPES)[number];
export type MediaType = ImageType | VideoType;

/** The type named by the file's first bytes (its magic number); null for anything else (SVG, TIFF, HEIC, text…). */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const at = (offset: number, ascii: string) =>
    bytes.length >= offset + ascii.length && [...ascii].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && at(0, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return 'image/gif';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp';
  return null;
}

/**
 * An image's type, or a video's from its ISO file box (`ftyp` at byte 4; brand `qt  ` is QuickTime): what a content
 * route names a stored file by when it knows only the hash. The file was probed when it was stored.
 */
export function sniffMediaType(head: Uint8Array): MediaType | null {
  const image = sniffImageType(head);
  if (image) return image;
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length < 12 || ascii(4, 8) !== 'ftyp') return null;
  return ascii(8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
}

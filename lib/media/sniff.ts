/** What Semel takes: JPEG, PNG, GIF and WebP images, decided by their bytes, never by a name (no sharp here: the sandbox uses it too). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

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

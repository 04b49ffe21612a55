import sharp from 'sharp';

/** What Semel takes: JPEG, PNG, GIF and WebP images up to 5 MB, decided by their bytes, never by a name. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** A decompression bomb (a tiny file that decodes to gigapixels) is refused before it is decoded. */
const MAX_PIXELS = 40_000_000;

export type CheckedImage = { type: ImageType; width: number; height: number; bytes: Uint8Array };
export type ImageRejection = { ok: false; message: string };

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

const FORMAT_OF: Record<ImageType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Checks an upload by its content and re-encodes it without any metadata: EXIF (GPS position, camera serial),
 * XMP, IPTC and comments are dropped, the EXIF orientation is applied to the pixels first so the picture still
 * stands the right way. Animated GIF and WebP keep their frames. The stored bytes are this output.
 */
export async function checkImage(input: Uint8Array): Promise<CheckedImage | ImageRejection> {
  if (input.length === 0) return { ok: false, message: 'The file is empty' };
  if (input.length > MAX_IMAGE_BYTES)
    return { ok: false, message: `The image is ${megabytes(input.length)}; at most 5 MB is accepted` };
  const type = sniffImageType(input);
  if (!type) return { ok: false, message: 'Not a JPEG, PNG, GIF or WebP image (checked by its content)' };
  const animated = type === 'image/gif' || type === 'image/webp';
  try {
    const image = sharp(input, { animated, limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    // The decoder must agree with the magic number: a PNG header on other data is not a PNG.
    if (meta.format !== FORMAT_OF[type]) return { ok: false, message: 'The file is damaged or not what it claims to be' };
    const pipeline = image.rotate(); // applies and then drops the EXIF orientation
    const encoded =
      type === 'image/jpeg'
        ? pipeline.jpeg({ quality: 90, mozjpeg: true })
        : type === 'image/png'
          ? pipeline.png()
          : type === 'image/gif'
            ? pipeline.gif()
            : pipeline.webp({ quality: 90 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const height = meta.pages && meta.pages > 1 ? (meta.pageHeight ?? info.height) : info.height;
    return { type, width: info.width, height, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (/pixel limit/i.test(message)) return { ok: false, message: 'The image has too many pixels (at most 40 megapixels)' };
    return { ok: false, message: 'The image could not be read: it is damaged or not a supported image' };
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

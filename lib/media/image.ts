import sharp from 'sharp';
import { sniffImageType, type ImageType } from './sniff';

export { IMAGE_TYPES, sniffImageType, type ImageType } from './sniff';
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** A decompression bomb (a tiny file that decodes to gigapixels) is refused before it is decoded. */
const MAX_PIXELS = 40_000_000;

export type CheckedImage = { type: ImageType; width: number; height: number; bytes: Uint8Array };
export type ImageRejection = { ok: false; message: string };

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
    if (meta.format !== FORMAT_OF[type])
      return { ok: false, message: 'The file is damaged or not what it claims to be' };
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
    if (/pixel limit/i.test(message))
      return { ok: false, message: 'The image has too many pixels (at most 40 megapixels)' };
    return { ok: false, message: 'The image could not be read: it is damaged or not a supported image' };
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

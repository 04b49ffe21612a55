import sharp from 'sharp';
import { checkImage } from '@/lib/media/image';

/** The logo is drawn at most this wide on the PDF; it is stored at twice that for a sharp print. */
const LOGO_WIDTH = 480;
export const MAX_LOGO_BYTES = 256 * 1024;

/**
 * A report logo from an upload: checked by its content like any image (lib/media/image.ts: EXIF dropped), then made a
 * PNG at most 480 px wide (a PDF takes PNG and JPEG; GIF and WebP are converted). Refused when it stays too large.
 */
export async function prepareLogo(
  input: Uint8Array,
): Promise<{ ok: true; bytes: Buffer; type: 'image/png' } | { ok: false; message: string }> {
  const checked = await checkImage(input);
  if (!('bytes' in checked)) return checked;
  const bytes = await sharp(checked.bytes)
    .resize({ width: LOGO_WIDTH, withoutEnlargement: true })
    .png({ compressionLevel: 9 })
    .toBuffer();
  if (bytes.length > MAX_LOGO_BYTES)
    return { ok: false, message: 'The logo is too detailed: keep it under 256 KB as a PNG' };
  return { ok: true, bytes, type: 'image/png' };
}

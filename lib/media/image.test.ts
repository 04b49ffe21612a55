import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkImage, MAX_IMAGE_BYTES, sniffImageType } from './image';
import { containsGpsLatitude, jpegWithGpsExif, makeImage } from '@/testing/images';

describe('images are checked by their content, not their name', () => {
  it('recognises JPEG, PNG, GIF and WebP by their magic bytes, and keeps width and height', async () => {
    for (const [format, type] of [
      ['jpeg', 'image/jpeg'],
      ['png', 'image/png'],
      ['gif', 'image/gif'],
      ['webp', 'image/webp'],
    ] as const) {
      const bytes = await makeImage(format, { width: 33, height: 21 });
      expect(sniffImageType(bytes)).toBe(type);
      expect(await checkImage(bytes)).toMatchObject({ type, width: 33, height: 21 });
    }
  });

  it('refuses what is not one of them: text, SVG, TIFF, a PNG header on garbage, an empty file', async () => {
    const refusals = [
      new TextEncoder().encode('hello, I am an image.jpg'),
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      new Uint8Array(
        await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
          .tiff()
          .toBuffer(),
      ),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]),
      new Uint8Array(0),
    ];
    for (const bytes of refusals) expect(await checkImage(bytes)).toMatchObject({ ok: false });
    expect(await checkImage(refusals[0]!)).toEqual({
      ok: false,
      message: 'Not a JPEG, PNG, GIF or WebP image (checked by its content)',
    });
  });

  it('refuses more than 5 MB before decoding, and a decompression bomb by its pixel count', async () => {
    const tooLarge = new Uint8Array(MAX_IMAGE_BYTES + 1);
    tooLarge.set([0xff, 0xd8, 0xff]);
    expect(await checkImage(tooLarge)).toEqual({ ok: false, message: 'The image is 5.0 MB; at most 5 MB is accepted' });
    const bomb = new Uint8Array(
      await sharp({ create: { width: 8000, height: 6000, channels: 3, background: 'white' } })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    );
    expect(bomb.length).toBeLessThan(MAX_IMAGE_BYTES);
    expect(await checkImage(bomb)).toEqual({
      ok: false,
      message: 'The image has too many pixels (at most 40 megapixels)',
    });
  });
});

describe('EXIF is stripped (the location a phone writes must not reach a network)', () => {
  it('a JPEG with GPS EXIF: the position is in the upload and gone from what is stored; its orientation is applied', async () => {
    const upload = await jpegWithGpsExif({ width: 40, height: 20 });
    // The crafted file really carries the data: sharp reads the EXIF, the GPS rationals are in its bytes.
    const before = await sharp(upload).metadata();
    expect(before.exif?.length).toBeGreaterThan(0);
    expect(before.orientation).toBe(6);
    expect(containsGpsLatitude(upload)).toBe(true);

    const checked = await checkImage(upload);
    if ('ok' in checked) throw new Error(checked.message);
    const after = await sharp(checked.bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(containsGpsLatitude(checked.bytes)).toBe(false);
    expect(Buffer.from(checked.bytes).includes(Buffer.from('Exif\0\0', 'binary'))).toBe(false);
    // Orientation 6 turned the 40×20 picture upright: 20×40, as a viewer would show it.
    expect(checked).toMatchObject({ type: 'image/jpeg', width: 20, height: 40 });
    expect([after.width, after.height]).toEqual([20, 40]);
  });
});

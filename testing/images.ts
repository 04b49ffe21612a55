import sharp from 'sharp';

/** A small real image of each type (solid colour; `seed` changes the colour, hence the bytes). */
export async function makeImage(
  format: 'jpeg' | 'png' | 'gif' | 'webp',
  options: { seed?: number; width?: number; height?: number } = {},
): Promise<Uint8Array> {
  const seed = options.seed ?? 0;
  const image = sharp({
    create: {
      width: options.width ?? 32,
      height: options.height ?? 24,
      channels: 3,
      background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: 120 },
    },
  });
  const out = await (
    format === 'jpeg' ? image.jpeg() : format === 'png' ? image.png() : format === 'gif' ? image.gif() : image.webp()
  ).toBuffer();
  return new Uint8Array(out);
}

/** 52°31'12" N, 13°24'36" E (Berlin) as EXIF rationals: the bytes a test looks for after stripping. */
export const GPS_LATITUDE = [52, 31, 12] as const;

/**
 * A JPEG carrying an EXIF APP1 segment with a GPS IFD (GPSLatitudeRef N, GPSLatitude 52/1 31/1 12/1, GPSLongitude…)
 * and an Orientation tag of 6 (rotate 90° clockwise), inserted right after SOI: what a phone camera writes.
 */
export async function jpegWithGpsExif(options: { width?: number; height?: number } = {}): Promise<Uint8Array> {
  const jpeg = await makeImage('jpeg', { seed: 7, width: options.width ?? 40, height: options.height ?? 20 });
  const tiff = gpsTiff();
  const app1Payload = Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiff]);
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(app1Payload.length + 2, 2);
  return new Uint8Array(
    Buffer.concat([Buffer.from(jpeg.subarray(0, 2)), app1, app1Payload, Buffer.from(jpeg.subarray(2))]),
  );
}

/** Big-endian TIFF: IFD0 { Orientation=6, GPSInfo→ }, GPS IFD { LatitudeRef, Latitude, LongitudeRef, Longitude }. */
function gpsTiff(): Buffer {
  const b = Buffer.alloc(200);
  b.write('MM', 0, 'binary');
  b.writeUInt16BE(42, 2);
  b.writeUInt32BE(8, 4); // IFD0 at 8
  // IFD0: 2 entries
  b.writeUInt16BE(2, 8);
  entry(b, 10, 0x0112, 3, 1, 6 << 16); // Orientation SHORT 6 (left-justified in the value field)
  entry(b, 22, 0x8825, 4, 1, 38); // GPSInfo LONG → 38
  b.writeUInt32BE(0, 34); // no next IFD
  // GPS IFD at 38: 4 entries (2 + 4*12 + 4 = 54 → data at 92)
  b.writeUInt16BE(4, 38);
  entry(b, 40, 0x0001, 2, 2, 0x4e000000); // GPSLatitudeRef ASCII "N\0"
  entry(b, 52, 0x0002, 5, 3, 92); // GPSLatitude RATIONAL[3] → 92
  entry(b, 64, 0x0003, 2, 2, 0x45000000); // GPSLongitudeRef "E\0"
  entry(b, 76, 0x0004, 5, 3, 116); // GPSLongitude → 116
  b.writeUInt32BE(0, 88);
  GPS_LATITUDE.forEach((v, i) => {
    b.writeUInt32BE(v, 92 + i * 8);
    b.writeUInt32BE(1, 96 + i * 8);
  });
  [13, 24, 36].forEach((v, i) => {
    b.writeUInt32BE(v, 116 + i * 8);
    b.writeUInt32BE(1, 120 + i * 8);
  });
  return b.subarray(0, 140);
}

function entry(b: Buffer, at: number, tag: number, type: number, count: number, value: number) {
  b.writeUInt16BE(tag, at);
  b.writeUInt16BE(type, at + 2);
  b.writeUInt32BE(count, at + 4);
  b.writeUInt32BE(value >>> 0, at + 8);
}

/** Whether the bytes still hold the crafted GPS latitude (52/1 31/1 12/1 as big-endian rationals). */
export function containsGpsLatitude(bytes: Uint8Array): boolean {
  const needle = Buffer.alloc(24);
  GPS_LATITUDE.forEach((v, i) => {
    needle.writeUInt32BE(v, i * 8);
    needle.writeUInt32BE(1, i * 8 + 4);
  });
  return Buffer.from(bytes).includes(needle);
}

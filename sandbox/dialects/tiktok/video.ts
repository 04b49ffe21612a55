// What TikTok accepts as a video container, read from the bytes (never the declared type): MP4 and MOV (an ISO base
// media `ftyp` box; QuickTime's brand `qt  `) and WebM (an EBML header).

export type VideoType = 'video/mp4' | 'video/quicktime' | 'video/webm';

export function sniffVideoType(bytes: Uint8Array): VideoType | null {
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp')
    return ascii(bytes, 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return 'video/webm';
  return null;
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

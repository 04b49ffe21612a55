import { createHash } from 'node:crypto';
import { sniffImageType } from '@/lib/media/sniff';
import { guardedGet } from '@/lib/net/guarded-get';
import { appOrigin } from '@/lib/providers/base-url';
import type { SandboxAccount, SandboxDeps, SandboxMedia, SandboxPostMedia } from '@/sandbox/store/types';

// Uploads as every dialect's server keeps them: an image (by its bytes) with alt text, private to the uploader
// until a post names it. The timeline shows what each post received: { type, altText, sha256 }.

/** The largest image a sandbox dialect accepts (the platforms' own limits are checked before sending). */
export const MAX_SANDBOX_IMAGE_BYTES = 8 * 1024 * 1024;

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export const postMediaOf = (m: SandboxMedia): SandboxPostMedia => ({
  type: m.type,
  altText: m.altText,
  sha256: m.sha256,
});

/** One file part of a multipart body and the text fields beside it; null when the body is not multipart. */
export async function readMultipart(
  request: Request,
  fileField: string,
): Promise<{ bytes: Uint8Array | null; fields: Record<string, string> } | null> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')) return null;
  try {
    const form = await request.formData();
    const fields: Record<string, string> = {};
    let bytes: Uint8Array | null = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else if (name === fileField) bytes = new Uint8Array(await value.arrayBuffer());
    }
    return { bytes, fields };
  } catch {
    return null;
  }
}

/** Stores an upload when its bytes are an image (by content); null otherwise. */
export async function storeImage(
  deps: SandboxDeps,
  account: SandboxAccount,
  bytes: Uint8Array,
  options: { altText?: string; processingMs?: number } = {},
): Promise<SandboxMedia | null> {
  const type = sniffImageType(bytes);
  if (!type || bytes.length > MAX_SANDBOX_IMAGE_BYTES) return null;
  return deps.store.createMedia({
    accountId: account.id,
    type,
    altText: options.altText ?? '',
    sha256: sha256Of(bytes),
    size: bytes.length,
    readyAt: new Date(Date.now() + (options.processingMs ?? 0)),
    uploaded: true,
  });
}

export type ResolvedMedia =
  { ok: true; media: SandboxMedia[] } | { ok: false; reason: 'unknown' | 'processing'; id: string };

/** The account's own uploads by id, in order: someone else's or an unknown id is `unknown`, one not ready `processing`. */
export async function resolveMedia(deps: SandboxDeps, account: SandboxAccount, ids: string[]): Promise<ResolvedMedia> {
  const media: SandboxMedia[] = [];
  for (const id of ids) {
    const found = /^\d{1,19}$/.test(id) ? await deps.store.getMedia(id) : null;
    if (!found || found.accountId !== account.id || !found.uploaded) return { ok: false, reason: 'unknown', id };
    if (found.readyAt.getTime() > Date.now()) return { ok: false, reason: 'processing', id };
    media.push(found);
  }
  return { ok: true, media };
}

/**
 * How a platform that takes media by URL (Threads images, TikTok videos: `maxBytes` larger) fetches one: a GET through the outbound guard, the body cut off
 * past the sandbox's limit. The app serves its images at signed URLs that expire (lib/media/signed-url.ts), on its
 * own origin (loopback behind `next start`): that origin's `/api/media/` is the one internal place it may fetch.
 */
export async function fetchImageOverHttp(
  url: string,
  ownOrigin: string = appOrigin(),
  maxBytes = MAX_SANDBOX_IMAGE_BYTES,
): Promise<Uint8Array | null> {
  const result = await guardedGet(url, {
    maxBytes,
    policy: isOwnMediaUrl(url, ownOrigin) ? { trustedOrigin: ownOrigin } : {},
  });
  return result.ok ? result.bytes : null;
}

function isOwnMediaUrl(url: string, ownOrigin: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === new URL(ownOrigin).origin && parsed.pathname.startsWith('/api/media/');
  } catch {
    return false;
  }
}

/**
 * A video's container by its bytes, as a platform that fetches one checks it: an ISO file (`ftyp` box at 4) whose
 * brand says QuickTime (`qt  `) or one of the MP4 family; null for anything else.
 */
export function sniffVideoType(bytes: Uint8Array): 'video/mp4' | 'video/quicktime' | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length < 12 || ascii(4, 8) !== 'ftyp') return null;
  const brand = ascii(8, 12);
  if (brand === 'qt  ') return 'video/quicktime';
  return /^(isom|iso\d|mp4\d|avc1|M4V |mp41|mp42|dash|hvc1)$/.test(brand) ? 'video/mp4' : null;
}

/** Bluesky: a blob's CID (CIDv1, raw codec, sha2-256) carries the SHA-256 of its bytes. */
export function sha256OfBlobCid(cid: string): string | null {
  if (!cid.startsWith('b')) return null;
  const bytes = base32Decode(cid.slice(1));
  if (!bytes || bytes.length !== 36 || bytes[0] !== 0x01 || bytes[2] !== 0x12 || bytes[3] !== 0x20) return null;
  return Buffer.from(bytes.subarray(4)).toString('hex');
}

/** What a Bluesky record's images embed shows: each blob's type and hash, with its alt text. */
export function mediaOfRecord(record: Record<string, unknown>): SandboxPostMedia[] {
  const embed = record.embed as { $type?: unknown; images?: unknown } | undefined;
  if (embed?.$type !== 'app.bsky.embed.images' || !Array.isArray(embed.images)) return [];
  return embed.images.flatMap((item: { image?: { mimeType?: unknown; ref?: { $link?: unknown } }; alt?: unknown }) => {
    const link = item.image?.ref?.$link;
    const sha256 = typeof link === 'string' ? sha256OfBlobCid(link) : null;
    return sha256
      ? [{ type: String(item.image?.mimeType ?? ''), altText: typeof item.alt === 'string' ? item.alt : '', sha256 }]
      : [];
  });
}

function base32Decode(text: string): Uint8Array | null {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = alphabet.indexOf(char);
    if (value === -1) return null;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

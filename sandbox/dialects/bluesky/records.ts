import { createHash } from 'node:crypto';
import type { SandboxAccount, SandboxPost } from '@/sandbox/store/types';

// What the sandbox's Bluesky dialect knows of records: app.bsky.feed.post validation (the part of the
// lexicon a post by Semel can get wrong), CIDs and the shapes getRecord and listRecords answer with.

export const POST_COLLECTION = 'app.bsky.feed.post';
export const TID_SYNTAX = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const MAX_GRAPHEMES = 300;
const MAX_TEXT_BYTES = 3000;
/** atproto datetimes: RFC 3339 with a timezone, never `-00:00` (https://atproto.com/specs/lexicon#datetime). */
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-](?!00:00)\d{2}:\d{2})$/;

export type PostRecord = {
  text: string;
  createdAt: string;
  reply?: { root: { uri: string; cid: string }; parent: { uri: string; cid: string } };
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strongRef = (v: unknown) =>
  isObject(v) && typeof v.uri === 'string' && v.uri.startsWith('at://') && typeof v.cid === 'string';

/** The lexicon's maxGraphemes: extended grapheme clusters of the text as sent (the PDS does not normalize). */
export function graphemeLength(text: string): number {
  return [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;
}

/** The lexicon checks putRecord runs on a post (prepare.ts); the error text follows the PDS's validator. */
export function validatePostRecord(record: unknown): { ok: true; record: PostRecord } | { ok: false; message: string } {
  const fail = (issue: string, path = '') => ({
    ok: false as const,
    message: `Invalid ${POST_COLLECTION} record: ${issue} at $.record${path}`,
  });
  if (!isObject(record)) return fail('Expected object value type');
  // Postgres (jsonb, text) cannot hold NUL; the app never sends it (its input validation refuses NUL).
  if (JSON.stringify(record).includes('\\u0000')) return fail('NUL characters are not accepted by the sandbox');
  if (record.$type !== POST_COLLECTION) return fail(`Expected "${POST_COLLECTION}" value`, '.$type');
  if (typeof record.text !== 'string') return fail('Expected string value type', '.text');
  const graphemes = graphemeLength(record.text);
  if (graphemes > MAX_GRAPHEMES) return fail(`grapheme too big (maximum ${MAX_GRAPHEMES}, got ${graphemes})`, '.text');
  const bytes = Buffer.byteLength(record.text, 'utf8');
  if (bytes > MAX_TEXT_BYTES) return fail(`string too big (maximum ${MAX_TEXT_BYTES}, got ${bytes})`, '.text');
  if (
    typeof record.createdAt !== 'string' ||
    !DATETIME.test(record.createdAt) ||
    Number.isNaN(Date.parse(record.createdAt))
  )
    return fail('Invalid datetime format', '.createdAt');
  if (
    record.reply !== undefined &&
    !(isObject(record.reply) && strongRef(record.reply.root) && strongRef(record.reply.parent))
  )
    return fail('Expected a reply with root and parent strong references', '.reply');
  if (record.facets !== undefined && !validFacets(record.facets, bytes)) return fail('Invalid facets', '.facets');
  const embedProblem = record.embed === undefined ? null : checkEmbed(record.embed);
  if (embedProblem) return fail(embedProblem, '.embed');
  return { ok: true, record: record as unknown as PostRecord };
}

const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 1_000_000;

/**
 * app.bsky.embed.images: one to four images, each a blob (image/*, at most 1,000,000 bytes) with alt text.
 * Other embeds (links, quotes) are not checked. Unlike a PDS, the sandbox keeps no blobs, so it cannot
 * refuse a reference to one it never received.
 */
function checkEmbed(embed: unknown): string | null {
  if (!isObject(embed) || typeof embed.$type !== 'string') return 'Expected an embed with a $type';
  if (embed.$type !== 'app.bsky.embed.images') return null;
  const images = embed.images;
  if (!Array.isArray(images) || images.length === 0 || images.length > MAX_IMAGES)
    return `Expected 1 to ${MAX_IMAGES} images`;
  for (const image of images) {
    if (!isObject(image) || typeof image.alt !== 'string') return 'Expected an image with alt text';
    const blob = image.image;
    if (
      !isObject(blob) ||
      blob.$type !== 'blob' ||
      !isObject(blob.ref) ||
      typeof blob.ref.$link !== 'string' ||
      typeof blob.mimeType !== 'string' ||
      !blob.mimeType.startsWith('image/') ||
      !Number.isInteger(blob.size)
    )
      return 'Expected an image blob';
    if ((blob.size as number) > MAX_IMAGE_BYTES) return `blob too big (maximum ${MAX_IMAGE_BYTES})`;
  }
  return null;
}

function validFacets(facets: unknown, textBytes: number): boolean {
  if (!Array.isArray(facets)) return false;
  return facets.every((f) => {
    if (!isObject(f) || !isObject(f.index) || !Array.isArray(f.features)) return false;
    const { byteStart, byteEnd } = f.index;
    return (
      Number.isInteger(byteStart) &&
      Number.isInteger(byteEnd) &&
      (byteStart as number) >= 0 &&
      (byteEnd as number) >= (byteStart as number) &&
      (byteEnd as number) <= textBytes &&
      f.features.every((feature) => isObject(feature) && typeof feature.$type === 'string')
    );
  });
}

/**
 * A CIDv1 (dag-cbor codec, sha2-256) over the record's canonical JSON: the same record always has the same
 * CID and any change gives another, which is all a client can rely on. (A PDS hashes the DAG-CBOR bytes.)
 */
export function recordCid(record: Record<string, unknown>): string {
  return cid(Buffer.from(canonicalJson(record)), DAG_CBOR);
}

/** A blob's CID: CIDv1, raw codec, sha2-256 of its bytes (as a PDS makes it). */
export function blobCid(bytes: Buffer): string {
  return cid(bytes, RAW);
}

const DAG_CBOR = 0x71;
const RAW = 0x55;

function cid(content: Buffer, codec: number): string {
  const digest = createHash('sha256').update(content).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, codec, 0x12, 0x20]), digest]))}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** RFC 4648 base32, lower case, no padding (multibase "b"). */
function base32(bytes: Buffer): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function recordUri(account: SandboxAccount, rkey: string): string {
  return `at://${account.platformUserId}/${POST_COLLECTION}/${rkey}`;
}

/** getRecord's and listRecords' `{ uri, cid, value }`. */
export function recordJson(post: SandboxPost, account: SandboxAccount) {
  const value = post.record ?? {};
  return { uri: recordUri(account, post.recordKey!), cid: recordCid(value), value };
}

/** The account's handle as the PDS answers it (no "@"). */
export function bareHandle(account: SandboxAccount): string {
  return account.handle.replace(/^@/, '');
}

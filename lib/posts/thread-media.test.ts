import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { createPostRequestSchema, fingerprintInput } from './schemas';

// Threads and images (docs/architecture.md#media-before-the-post): a thread's images go on its parts
// (`parts[].mediaIds`, up to 4 per part); a top-level mediaIds on a thread is a field error naming where they go. Part
// images are part of the fingerprint, and a thread without images hashes exactly as it did before parts could have
// images (stored keys still replay).

const accountIds = [randomUUID()];
const parts = [{ text: 'one' }, { text: 'two' }];
const paths = (payload: unknown) => {
  const parsed = createPostRequestSchema.safeParse(payload);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('threads and images: the request schema', () => {
  it('takes up to 4 images on each part', () => {
    const four = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(
      paths({
        kind: 'thread',
        accountIds,
        parts: [
          { text: 'one', mediaIds: four },
          { text: 'two', mediaIds: four },
        ],
      }),
    ).toEqual([]);
    expect(paths({ kind: 'thread', accountIds, parts: [{ text: 'one', mediaIds: [] }, { text: 'two' }] })).toEqual([]);
  });

  it('refuses a fifth image on a part, naming the part', () => {
    const five = Array.from({ length: 5 }, () => randomUUID());
    expect(paths({ kind: 'thread', accountIds, parts: [{ text: 'one' }, { text: 'two', mediaIds: five }] })).toEqual([
      'parts.1.mediaIds: At most 4 images per part',
    ]);
  });

  it('refuses a part image id that is not an id, naming it', () => {
    expect(
      paths({ kind: 'thread', accountIds, parts: [{ text: 'one', mediaIds: ['nope'] }, { text: 'two' }] }),
    ).toEqual(['parts.0.mediaIds.0: Must be an image id (POST /api/v1/media)']);
  });

  it('refuses a top-level mediaIds on a thread with a field error saying where images go', () => {
    expect(paths({ kind: 'thread', parts, accountIds, mediaIds: [randomUUID()] })).toEqual([
      "mediaIds: A thread's images go on its parts: `parts[].mediaIds`",
    ]);
    // An empty list asks for nothing.
    expect(paths({ kind: 'thread', parts, accountIds, mediaIds: [] })).toEqual([]);
  });

  it('still refuses an unknown field on a part, and parts on a post', () => {
    expect(paths({ kind: 'thread', accountIds, parts: [{ text: 'one', images: [] }, { text: 'two' }] })).toHaveLength(
      1,
    );
    expect(paths({ text: 'x', accountIds, parts, mediaIds: [randomUUID()] })).toEqual([
      'parts: Only threads have parts',
    ]);
  });
});

describe('threads and images: the fingerprint', () => {
  it('hashes a thread without images exactly as before part images existed', () => {
    const plain = createPostRequestSchema.parse({ kind: 'thread', parts, accountIds });
    const before = {
      text: null,
      parts: ['one', 'two'],
      accountIds,
      scheduledAt: null,
      kind: 'thread',
      inReplyTo: null,
      recipient: null,
    };
    expect(fingerprintInput(plain)).toEqual(before);
    const emptyLists = createPostRequestSchema.parse({
      kind: 'thread',
      parts: parts.map((p) => ({ ...p, mediaIds: [] })),
      accountIds,
    });
    expect(fingerprint(fingerprintInput(emptyLists))).toBe(fingerprint(before));
  });

  it('includes each part’s images, in order and by part', () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const on = (first: string[], second: string[]) =>
      fingerprint(
        fingerprintInput(
          createPostRequestSchema.parse({
            kind: 'thread',
            accountIds,
            parts: [
              { text: 'one', mediaIds: first },
              { text: 'two', mediaIds: second },
            ],
          }),
        ),
      );
    const plain = fingerprint(fingerprintInput(createPostRequestSchema.parse({ kind: 'thread', parts, accountIds })));
    expect(on([], [a])).not.toBe(plain);
    expect(on([], [a])).not.toBe(on([a], [])); // the same image on another part is another request
    expect(on([], [a, b])).not.toBe(on([], [b, a])); // order matters: the first image leads
    expect(on([], [a, b])).toBe(on([], [a, b]));
  });

  it('leaves a post’s mediaIds out when there are none, and keeps their order when there are', () => {
    const plain = createPostRequestSchema.parse({ text: 'x', accountIds });
    expect(fingerprintInput(plain)).not.toHaveProperty('mediaIds');
    expect(fingerprintInput(plain)).not.toHaveProperty('partMediaIds');
    expect(fingerprintInput({ ...plain, mediaIds: [] })).toEqual(fingerprintInput(plain));
    const ids = [randomUUID(), randomUUID()];
    expect(fingerprintInput({ ...plain, mediaIds: ids })).toMatchObject({ mediaIds: ids });
  });
});

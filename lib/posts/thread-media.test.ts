import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPostRequestSchema, fingerprintInput } from './post-input';

// Threads and images merged (issues 11 and images): a thread takes no images yet, neither on the whole thread nor
// on a part, and says so as a field error (422); a post without images hashes as it did before images existed.

const accountIds = [randomUUID()];
const parts = [{ text: 'one' }, { text: 'two' }];

describe('threads and images', () => {
  it('refuses mediaIds on a thread with a field error on mediaIds', () => {
    const parsed = createPostRequestSchema.safeParse({ kind: 'thread', parts, accountIds, mediaIds: [randomUUID()] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toEqual(['mediaIds']);
  });

  it('refuses mediaIds on a thread part (an unknown field of the part)', () => {
    const parsed = createPostRequestSchema.safeParse({
      kind: 'thread',
      parts: [{ text: 'one', mediaIds: [randomUUID()] }, { text: 'two' }],
      accountIds,
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path.join('.')).toBe('parts.0');
  });

  it('accepts a thread without images, and a post with them', () => {
    expect(createPostRequestSchema.safeParse({ kind: 'thread', parts, accountIds, mediaIds: [] }).success).toBe(true);
    expect(createPostRequestSchema.safeParse({ text: 'x', accountIds, mediaIds: [randomUUID()] }).success).toBe(true);
  });

  it('leaves mediaIds out of the fingerprint when there are none, and keeps their order when there are', () => {
    const plain = createPostRequestSchema.parse({ text: 'x', accountIds });
    expect(fingerprintInput(plain)).not.toHaveProperty('mediaIds');
    expect(fingerprintInput({ ...plain, mediaIds: [] })).toEqual(fingerprintInput(plain));
    const ids = [randomUUID(), randomUUID()];
    expect(fingerprintInput({ ...plain, mediaIds: ids })).toMatchObject({ mediaIds: ids });
  });
});

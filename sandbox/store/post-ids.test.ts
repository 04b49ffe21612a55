import { describe, expect, it } from 'vitest';
import { newPostId, parsePostId } from './post-ids';

describe('sandbox post ids, like snowflakes', () => {
  it('posts of the same millisecond get ever larger ids (creation order is id order), still numeric and distinct', () => {
    const at = new Date('2026-12-02T05:00:00.000Z');
    const ids = Array.from({ length: 5_000 }, () => parsePostId(newPostId(at))!);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('an earlier time still gets a smaller id (the seed writes history in the past)', () => {
    const later = parsePostId(newPostId(new Date('2026-12-02T06:00:00.000Z')))!;
    const earlier = parsePostId(newPostId(new Date('2026-11-01T06:00:00.000Z')))!;
    expect(earlier < later).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { perPostStream } from './inbox-per-post';
import type { InboxReadInput } from './inbox-types';

// The per-post round's cursor (the stream's own logic, no platform): which post and which of its pages a read asks
// for, from what the last read kept. The readers against the sandbox: lib/inbox/per-post-paging.test.ts.

const post = (id: string) => ({ id, publishedAt: new Date() });
/** A fake platform: each post has `pages` pages, named p0, p1…; the page after `after`. */
function stream(pages: Record<string, number>) {
  const asked: [string, string | undefined][] = [];
  const s = perPostStream('comments', async (postId, _input, after) => {
    asked.push([postId, after]);
    const n = after ? Number(after.slice(1)) : 0;
    return { items: [], own: [], next: n + 1 < pages[postId]! ? `p${n + 1}` : null };
  });
  return { s, asked };
}
const input = (cursor: string | null, ids: string[]): InboxReadInput => ({
  cursor,
  since: new Date(0),
  posts: ids.map(post),
});

describe('perPostStream', () => {
  it('follows a post’s pages before the next post, then starts the round over', async () => {
    const { s, asked } = stream({ a: 3, b: 1 });
    let cursor: string | null = null;
    const more: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await s.read(input(cursor, ['a', 'b']));
      cursor = page.cursor;
      more.push(page.more);
    }
    expect(asked).toEqual([
      ['a', undefined],
      ['a', 'p1'],
      ['a', 'p2'],
      ['b', undefined],
      ['a', undefined],
    ]);
    expect(more).toEqual([true, true, true, false, true]);
  });

  it('resumes the same post and page when a new post moved it down the list', async () => {
    const { s, asked } = stream({ a: 3, b: 1, z: 1 });
    const first = await s.read(input(null, ['a', 'b']));
    await s.read(input(first.cursor, ['z', 'a', 'b']));
    expect(asked.at(-1)).toEqual(['a', 'p1']);
  });

  it('a post gone from the window, an older cursor ({ i }) or a foreign one: no page cursor is sent to another post', async () => {
    const { s, asked } = stream({ a: 3, b: 2, c: 1 });
    await s.read(input(JSON.stringify({ i: 1, post: 'gone', after: 'p1' }), ['a', 'b', 'c']));
    expect(asked.at(-1)).toEqual(['b', undefined]);
    await s.read(input(JSON.stringify({ i: 2 }), ['a', 'b', 'c']));
    expect(asked.at(-1)).toEqual(['c', undefined]);
    await s.read(input(JSON.stringify({ i: 9 }), ['a', 'b', 'c']));
    expect(asked.at(-1)).toEqual(['a', undefined]);
    await s.read(input('not json', ['a', 'b', 'c']));
    expect(asked.at(-1)).toEqual(['a', undefined]);
    await s.read(input('null', ['a', 'b', 'c']));
    expect(asked.at(-1)).toEqual(['a', undefined]);
  });
});

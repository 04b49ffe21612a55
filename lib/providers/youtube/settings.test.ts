import { describe, expect, it } from 'vitest';
import { youtubeMeta } from './meta';
import { youtubeDescriptionBytes, youtubeVideoSettings } from './settings';

describe('youtubeVideoSettings: the one place a YouTube upload’s choices are made', () => {
  it('the title is the first non-empty line, the description the whole text; public, no tags, no schedule', () => {
    expect(youtubeVideoSettings({ text: '\n  Launch day  \nAll the details\nand more' })).toEqual({
      title: 'Launch day',
      description: 'Launch day  \nAll the details\nand more',
      tags: [],
      privacyStatus: 'public',
    });
  });

  it('the title is cut at 100 characters (code points, an emoji is one)', () => {
    const { title } = youtubeVideoSettings({ text: '🎬'.repeat(150) });
    expect([...title]).toHaveLength(100);
  });

  it('< and > are taken out of both (YouTube refuses them), and an empty title becomes "Video"', () => {
    const settings = youtubeVideoSettings({ text: '<<>>\n<b>bold</b> and 1 < 2' });
    expect(settings.title).toBe('bbold/b and 1  2');
    expect(settings.description).not.toMatch(/[<>]/);
    expect(youtubeVideoSettings({ text: '<>' }).title).toBe('Video');
  });

  it('the composer counts the description in UTF-8 bytes against 5,000, as YouTube does', () => {
    expect(youtubeDescriptionBytes('é')).toBe(2);
    expect(youtubeDescriptionBytes('a<b>')).toBe(2);
    expect(youtubeMeta.countText('x'.repeat(5_001)) > youtubeMeta.textLimit).toBe(true);
  });
});

describe('youtubeVideoSettings with the account’s options', () => {
  it('a chosen title, tags and privacy replace the defaults; the description stays the text', () => {
    expect(
      youtubeVideoSettings({
        text: 'First line\nmore',
        options: { title: 'My title', tags: ['a', 'b c'], privacy_status: 'unlisted' },
      }),
    ).toEqual({ title: 'My title', description: 'First line\nmore', tags: ['a', 'b c'], privacyStatus: 'unlisted' });
  });

  it('a scheduled release makes it private until then, at that instant', () => {
    const at = '2030-01-02T03:04:05+01:00';
    expect(youtubeVideoSettings({ text: 'x', options: { publish_at: at } })).toMatchObject({
      privacyStatus: 'private',
      publishAt: '2030-01-02T02:04:05.000Z',
    });
  });
});

import { characterCount } from '@/lib/posts/text';
import type { ProviderMeta } from '../definition';

export const linkedinMeta = {
  name: 'linkedin',
  label: 'LinkedIn',
  exactlyOnce:
    'LinkedIn refuses a duplicate post and names the existing one (422 DUPLICATE_POST), which is read back as evidence; an unknown outcome on an organization page is settled by reading the page’s posts, and on a member profile (not listable) goes to review with the evidence. A first comment goes after its post is confirmed; an unknown one is settled by reading that post’s comments (a page’s; a member’s go to review).',
  textLimit: 3000,
  countText: characterCount,
  media: { maxPerPost: 4, maxBytes: 5 * 1024 * 1024, types: ['image/jpeg', 'image/png', 'image/gif'] },
  // A reply is a comment of the account's own on its post (Comments API, POST /rest/socialActions/{urn}/comments): a
  // thread to LinkedIn is a post and its first comment, and only that. The Comments API names no length; 1,250
  // characters is what LinkedIn takes in a comment, and a comment is text without images here.
  kinds: ['post', 'reply'],
  replies: { noun: 'comment', textLimit: 1_250, media: false, maxThreadParts: 2, threadOnly: true },
  connect: { method: 'oauth', oauth: true, fields: [] },
  sandboxPath: '/api/sandbox/linkedin',
  // The timeline knows a sandbox post by its number; the Posts API by its share URN.
  sandboxPostPath: (id) =>
    `/api/sandbox/linkedin/rest/posts/${encodeURIComponent(id.startsWith('urn:') ? id : `urn:li:share:${id}`)}`,
} as const satisfies ProviderMeta;

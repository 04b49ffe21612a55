import { createHash } from 'node:crypto';
import markdownIt, { type MarkdownIt } from 'markdown-it';
import type { Profile } from '@/sandbox/store/types';

// A status's `content` as the account's server renders it. Mastodon escapes the text into paragraphs; a Markdown
// server (Hollo for every status; Akkoma, Pleroma, GoToSocial for accounts or posts set to Markdown) renders it:
// `**Launch** _today_` comes back `<p><strong>Launch</strong> <em>today</em></p>`, a mention `@ann@host` as
// `@ann` in a link, so the content's text is not what was sent. `/source` answers the original.

export type Rendered = {
  content: string;
  mentions: { id: string; username: string; acct: string; url: string }[];
  tags: { name: string; url: string }[];
  emojis: { shortcode: string; url: string; static_url: string; visible_in_picker: boolean }[];
};

/** The sandbox instance's custom emoji: kept as `:shortcode:` in content and listed in `emojis`, as Mastodon does. */
export const SANDBOX_EMOJI = ['blobcat', 'semel', 'party_parrot'] as const;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function plainHtml(text: string): string {
  return `<p>${escapeHtml(text)
    .split(/\n{2,}/)
    .map((p) => p.replace(/\n/g, '<br />'))
    .join('</p><p>')}</p>`;
}

const MENTION = /^@([\w.-]+)@((?:[\p{L}\p{N}-]+\.)+[\p{L}\p{N}-]+)/u;
const HASHTAG = /^#((?:[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*))/u;
const idOf = (s: string) => BigInt(`0x${createHash('sha256').update(s).digest('hex').slice(0, 15)}`).toString();

/** Mastodon's shortened link: scheme (and www.) hidden, the first 30 characters shown, the rest hidden. */
function linkDisplay(url: string): string {
  const prefix = /^(https?:\/\/(www\.)?)/i.exec(url)?.[0] ?? '';
  const rest = url.slice(prefix.length);
  const cut = rest.length > 30;
  return (
    `<span class="invisible">${escapeHtml(prefix)}</span><span class="${cut ? 'ellipsis' : ''}">` +
    `${escapeHtml(rest.slice(0, 30))}</span><span class="invisible">${escapeHtml(rest.slice(30))}</span>`
  );
}

type Found = Pick<Rendered, 'mentions' | 'tags'>;

/** One parser per base URL (hashtag links name it); what a render finds is collected in its `env`. */
const parsers = new Map<string, MarkdownIt>();

function markdown(base: string): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true });
  md.linkify.set({ fuzzyEmail: false });
  const atWordStart = (src: string, pos: number) => pos === 0 || /[\s(]/.test(src[pos - 1]!);
  md.inline.ruler.before('linkify', 'mention_hashtag', (state, silent) => {
    const ch = state.src[state.pos];
    if ((ch !== '@' && ch !== '#') || !atWordStart(state.src, state.pos)) return false;
    const rest = state.src.slice(state.pos);
    const match = ch === '@' ? MENTION.exec(rest) : HASHTAG.exec(rest);
    if (!match) return false;
    if (!silent) {
      const found = state.env as Found;
      const token = state.push('html_inline', '', 0);
      if (ch === '@') {
        const [, user, host] = match;
        const url = `https://${host}/@${user}`;
        found.mentions.push({ id: idOf(`${user}@${host}`), username: user!, acct: `${user}@${host}`, url });
        token.content =
          `<span class="h-card" translate="no"><a href="${escapeHtml(url)}" class="u-url mention">` +
          `@<span>${escapeHtml(user!)}</span></a></span>`;
      } else {
        const tag = match[1]!;
        const url = `${base}/tags/${encodeURIComponent(tag.toLowerCase())}`;
        found.tags.push({ name: tag.toLowerCase(), url });
        token.content = `<a href="${escapeHtml(url)}" class="mention hashtag" rel="tag">#<span>${escapeHtml(tag)}</span></a>`;
      }
    }
    state.pos += match[0].length;
    return true;
  });
  // Autolinked URLs show as Mastodon shows them; opened in a new tab, no referrer.
  md.core.ruler.push('mastodon_links', (state) => {
    for (const block of state.tokens) {
      const children = block.children ?? [];
      children.forEach((token, i) => {
        if (token.type !== 'link_open') return;
        token.attrSet('target', '_blank');
        token.attrSet('rel', 'nofollow noopener');
        token.attrSet('translate', 'no');
        const text = children[i + 1];
        if (token.markup === 'linkify' && text?.type === 'text') {
          text.type = 'html_inline';
          text.content = linkDisplay(String(token.attrGet('href') ?? text.content));
        }
      });
    }
  });
  return md;
}

/** `content`, `mentions`, `tags` and `emojis` of a status as the account's profile renders its text. */
export function renderStatusText(text: string, profile: Profile, base: string): Rendered {
  const shortcodes = new Set([...text.matchAll(/:([a-z0-9_]+):/gi)].map((m) => m[1]!));
  const emojis = SANDBOX_EMOJI.filter((e) => shortcodes.has(e)).map((shortcode) => ({
    shortcode,
    url: `${base}/emoji/${shortcode}.png`,
    static_url: `${base}/emoji/${shortcode}.png`,
    visible_in_picker: true,
  }));
  if (profile !== 'mastodon-markdown') return { content: plainHtml(text), mentions: [], tags: [], emojis };
  if (!parsers.has(base)) parsers.set(base, markdown(base));
  const found: Found = { mentions: [], tags: [] };
  const content = parsers.get(base)!.render(text, found).trim();
  return { content, ...found, emojis };
}

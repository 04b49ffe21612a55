import { decodeHTML } from 'entities';

// A link with a scheme, or a bare domain with an optional path (X links `example.com/launch` as t.co too).
const URL_PATTERN =
  /\bhttps?:\/\/[^\s<>"')\]]+|(?<![@\p{L}\p{N}_.-])(?:[\p{L}\p{N}-]+\.)+\p{L}{2,24}(?:\/[^\s<>"')\]]*)?/giu;
const BLOCK_END = /<\/(p|li|h[1-6]|blockquote|pre|div|ul|ol)\s*>/gi;

/**
 * Rendered HTML as a reader sees it: block ends and <br> as line breaks, custom emoji images as their alt text
 * (`:blobcat:`), every other tag dropped (Mastodon's hidden `https://` spans keep their text), entities decoded.
 */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return html;
  return decodeHTML(
    html
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(BLOCK_END, '\n')
      .replace(/<img\b[^>]*\balt="([^"]*)"[^>]*>/gi, ' $1 ')
      .replace(/<[^>]+>/g, ''),
  ).trim();
}

/**
 * Text as compared on the platform: Unicode NFC, entities decoded, whitespace collapsed, case kept; links compared
 * as "a link" because platforms rewrite them (X's t.co shortening, Mastodon's display form).
 */
export function normaliseForMatch(text: string): string {
  return decodeHTML(text.normalize('NFC')).replace(URL_PATTERN, '<link>').replace(/\s+/g, ' ').trim();
}

/**
 * Our text and a platform's text reduced to what every renderer keeps (docs/architecture.md#reconciliation): HTML
 * to text, then Markdown's emphasis, code, quotes, list markers, headings and link syntax to their words, mentions
 * to `@user` (servers link `@user@host` as `@user`), and then normaliseForMatch. Applied to both sides alike, so
 * a server that renders Markdown and one that stores it verbatim compare the same.
 */
export function reduceMarkup(text: string): string {
  const plain = htmlToText(text.normalize('NFC'))
    .replace(/```[^\n]*\n([\s\S]*?)```/g, '$1')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, '$1')
    .replace(/<(https?:\/\/[^>\s]+)>/g, '$1')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(\*|_)(?=\S)([\s\S]*?\S)\1(?![\p{L}\p{N}])/gu, '$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/^[ \t]{0,3}(?:>[ \t]?)+/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/gm, '')
    .replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]{0,3}(?:[-*_][ \t]*){3,}$/gm, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/(^|[^\p{L}\p{N}_])@([\p{L}\p{N}_.-]+)@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu, '$1@$2');
  return normaliseForMatch(plain);
}

/** Words for the similarity measure: reduced text, lower case, split on everything but letters and digits. */
export function wordsOf(text: string): string[] {
  return reduceMarkup(text)
    .replace(/<link>/g, ' ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * LinkedIn's "little" text format, in which the Posts API takes and returns `commentary`. Its reserved
 * characters must be escaped with a backslash, even outside any element: LinkedIn cuts a post off at the
 * first one it cannot parse, and still answers 201 (the post is live, shortened).
 */
export const LITTLE_RESERVED = new Set(['|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '\\', '*', '_', '~']);

// A hashtag at a word start becomes LinkedIn's HashtagTemplate, so it stays a hashtag; other `#` are escaped.
const HASHTAG = /(^|[\s([{])#([\p{L}\p{N}]+)/gu;

/** Plain text → little: every reserved character escaped, hashtags as `{hashtag|#|tag}`. */
export function toLittleText(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(HASHTAG)) {
    const start = match.index + match[1]!.length;
    parts.push(escapeLittle(text.slice(last, start)), `{hashtag|#|${match[2]}}`);
    last = start + 1 + match[2]!.length;
  }
  parts.push(escapeLittle(text.slice(last)));
  return parts.join('');
}

export function escapeLittle(text: string): string {
  let out = '';
  for (const char of text) out += LITTLE_RESERVED.has(char) ? `\\${char}` : char;
  return out;
}

const TEMPLATE = /^\{hashtag\|\\?([#＃])\|((?:\\.|[^\\}])*)\}/u;
const MENTION = /^@\[((?:\\.|[^\\\]])*)\]\((urn:li:[A-Za-z]+:[^)\s]+)\)/;

/**
 * Little → plain text, as people read the post: escapes resolved, a hashtag template as `#tag`, a mention as
 * its name. Lenient: what it does not recognise stays as written (reading back must never fail).
 */
export function fromLittleText(little: string): string {
  let out = '';
  for (let i = 0; i < little.length;) {
    const rest = little.slice(i);
    const char = little[i]!;
    if (char === '\\' && i + 1 < little.length && LITTLE_RESERVED.has(little[i + 1]!)) {
      out += little[i + 1];
      i += 2;
      continue;
    }
    const template = char === '{' ? TEMPLATE.exec(rest) : null;
    if (template) {
      out += template[1] + unescapeLittle(template[2]!);
      i += template[0].length;
      continue;
    }
    const mention = char === '@' ? MENTION.exec(rest) : null;
    if (mention) {
      out += unescapeLittle(mention[1]!);
      i += mention[0].length;
      continue;
    }
    out += char;
    i++;
  }
  return out;
}

function unescapeLittle(text: string): string {
  return text.replace(/\\(.)/gu, (match, char: string) => (LITTLE_RESERVED.has(char) ? char : match));
}

// LinkedIn's "little" text format as the sandbox reads it, written apart from the client's encoder so that a
// client that forgets to escape is caught here. LinkedIn's own behaviour: a post whose commentary has a reserved
// character it cannot parse is still created (201), cut off at that character.

const RESERVED = new Set(['|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '\\', '*', '_', '~']);
const HASHTAG_TEMPLATE = /^\{hashtag\|\\?[#＃]\|((?:\\.|[^\\{}|])+)\}/u;
const MENTION = /^@\[((?:\\.|[^\\\]])+)\]\(urn:li:(?:person|organization):[^)\s]+\)/;
const HASHTAG_ELEMENT = /^#([\p{L}\p{N}]+)/u;

/** The text people see: escapes resolved, hashtags and mentions as text, cut at the first unparsable character. */
export function readLittleText(commentary: string): string {
  let out = '';
  for (let i = 0; i < commentary.length;) {
    const char = commentary[i]!;
    if (!RESERVED.has(char)) {
      out += char;
      i++;
      continue;
    }
    const next = commentary[i + 1];
    if (char === '\\' && next !== undefined && RESERVED.has(next)) {
      out += next;
      i += 2;
      continue;
    }
    const rest = commentary.slice(i);
    const element =
      (char === '{' && HASHTAG_TEMPLATE.exec(rest)) ||
      (char === '@' && MENTION.exec(rest)) ||
      (char === '#' && HASHTAG_ELEMENT.exec(rest));
    if (!element) break; // LinkedIn truncates the post here
    out += (char === '@' ? '' : '#') + element[1]!.replace(/\\(.)/gu, '$1');
    i += element[0].length;
  }
  return out;
}

/** Commentary as the Posts API returns it: the stored text with every reserved character escaped. */
export function writeLittleText(text: string): string {
  let out = '';
  for (const char of text) out += RESERVED.has(char) ? `\\${char}` : char;
  return out;
}

/** Small helpers shared by the sandbox's platform handlers. */

export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}

/** JSON or form-encoded body as a plain object; null when it is neither. */
export async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      return Object.fromEntries((await request.formData()).entries());
    }
    const parsed: unknown = JSON.parse(await request.text());
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Mastodon's and LinkedIn's count: code points of the NFC text (a combining accent typed apart counts with its
 * letter, as in the precomposed form). Mastodon 4 counts grapheme clusters and every link as 23: both readings agree
 * on plain text, and this one is never more forgiving.
 */
export function characterCount(text: string): number {
  return [...text.normalize('NFC')].length;
}

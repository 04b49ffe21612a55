/** "It is live": the admin pastes the post's link or its id; the id is the last path segment of a link. */
export function parseLiveLink(
  input: string,
): { ok: true; externalId: string; url: string | null } | { ok: false; error: string } {
  const value = input.trim();
  if (!value) return { ok: false, error: 'Paste the link to the live post, or its id' };
  if (/^https?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      const id = url.pathname.split('/').filter(Boolean).at(-1);
      return id
        ? { ok: true, externalId: id, url: url.toString() }
        : { ok: false, error: 'That link has no post id in it' };
    } catch {
      return { ok: false, error: 'That is not a valid link' };
    }
  }
  return /^[\w.-]{1,128}$/.test(value)
    ? { ok: true, externalId: value, url: null }
    : { ok: false, error: 'A post id has only letters, digits, dots, dashes and underscores' };
}

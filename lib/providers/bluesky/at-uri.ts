/** Bluesky posts live in this collection of the author's repository. */
export const POST_COLLECTION = 'app.bsky.feed.post';

export type RecordRef = { repo: string; collection: string; rkey: string };

const AT_URI = /^at:\/\/([^/?#\s]+)\/([a-zA-Z0-9.-]+)\/([a-zA-Z0-9._:~-]{1,512})$/;
const APP_URL = /^https:\/\/bsky\.app\/profile\/([^/?#\s]+)\/post\/([a-zA-Z0-9._:~-]{1,512})\/?$/;

export function atUri(ref: RecordRef): string {
  return `at://${ref.repo}/${ref.collection}/${ref.rkey}`;
}

/**
 * A post reference as people paste it: its at:// URI (what Semel stores as a Bluesky post's id) or its
 * bsky.app link. The repo may be a DID or a handle (getRecord accepts both and answers with the DID form).
 */
export function parsePostRef(value: string): RecordRef | null {
  const trimmed = value.trim();
  const at = AT_URI.exec(trimmed);
  if (at) return { repo: decodeURIComponent(at[1]!), collection: at[2]!, rkey: at[3]! };
  const app = APP_URL.exec(trimmed);
  if (app) return { repo: decodeURIComponent(app[1]!), collection: POST_COLLECTION, rkey: app[2]! };
  return null;
}

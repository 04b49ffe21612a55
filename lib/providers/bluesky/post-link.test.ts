import { describe, expect, it } from 'vitest';
import { sendOnce } from '@/lib/net/send';
import { onPublicNetwork, openRepo, toRecentPost } from './repo';

// Part 5's rule: a post links to bsky.app (the public network's AppView) only when its PDS is of the public network;
// a post on any other PDS links to its at:// URI (the PDS URL goes with it in the evidence). The self-hosted case is
// also proven end to end against the reference PDS (pds.test.ts); no test here may call the public network.

const DID = 'did:plc:abcdefghijklmnopqrstuvwx';
const URI = `at://${DID}/app.bsky.feed.post/3mfyqao4qlqra`;
const repoAt = (baseUrl: string, trustedOrigin?: string) =>
  openRepo(
    { baseUrl, platformUserId: DID, accessToken: 'jwt', outbound: trustedOrigin ? { trustedOrigin } : {} },
    sendOnce,
  );

describe('a Bluesky post’s link', () => {
  it('the public network (bsky.social, its *.host.bsky.network PDS hosts) → the bsky.app post page', () => {
    for (const base of ['https://bsky.social', 'https://morel.us-east.host.bsky.network/', 'https://BSKY.social'])
      expect(repoAt(base).postUrl(URI)).toBe(`https://bsky.app/profile/${DID}/post/3mfyqao4qlqra`);
  });

  it('any other PDS → the at:// URI itself (bsky.app may not show it at all)', () => {
    for (const base of [
      'https://pds.example.org',
      'http://127.0.0.1:2583',
      'http://bsky.social', // not the public network's address: it is served over https only
      'https://evilbsky.network',
      'https://bsky.social.example.org',
      'https://bsky.network.example.org',
    ]) {
      expect(onPublicNetwork(base)).toBe(false);
      expect(repoAt(base).postUrl(URI)).toBe(URI);
    }
  });

  it('the built-in sandbox (a trusted app origin) → the record on the sandbox', () => {
    const url = repoAt('http://127.0.0.1:3000/api/sandbox/bluesky', 'http://127.0.0.1:3000').postUrl(URI)!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/sandbox\/bluesky\/xrpc\/com\.atproto\.repo\.getRecord\?/);
  });

  it('read back from the platform (listRecords/getRecord) the same way', () => {
    const record = { uri: URI, cid: 'bafy', value: { text: 'hi', createdAt: new Date().toISOString() } };
    expect(toRecentPost(repoAt('https://pds.example.org'), record).url).toBe(URI);
    expect(toRecentPost(repoAt('https://bsky.social'), record).url).toMatch(/^https:\/\/bsky\.app\/profile\//);
  });
});

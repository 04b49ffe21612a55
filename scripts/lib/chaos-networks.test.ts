import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@/lib/media/media-storage';
import type { PublishMedia } from '@/lib/providers/types';
import { attemptKeepingState } from '@/testing/attempt';
import { makeImage } from '@/testing/images';
import { startMemoryTestSandbox } from '@/testing/sandbox';
import { resolveProfile } from '@/sandbox/behaviour/profiles';
import {
  CHAOS_PROFILES,
  NEEDS_MEDIA,
  RUN_CAPS,
  assignPosts,
  copiesOnPlatform,
  type ChaosAccount,
} from './chaos-networks';

const CHAOS_NETWORKS = ['x', 'mastodon', 'bluesky', 'linkedin', 'threads', 'instagram', 'facebook'] as const;
// TikTok's and YouTube's copies are named by the post's own id, as their clients return it (their exactly-once tests).
const VIDEO_NETWORKS = ['tiktok', 'youtube'] as const;
/** The chaos run's one JPEG, served at its URL as the app's signed media route serves it. */
const jpeg = await makeImage('jpeg', { width: 64, height: 64 });
const IMAGE_URL = 'https://app.example/api/media/chaos';
const image: PublishMedia = {
  id: randomUUID(),
  sha256: sha256Hex(jpeg),
  mimeType: 'image/jpeg',
  altText: '',
  sizeBytes: jpeg.length,
  read: async () => jpeg,
  stream: async () => Readable.from([Buffer.from(jpeg)]),
  publicUrl: () => IMAGE_URL,
};

// The verdict's copies must be named as our database names the post it sent (`external_id`), on every network:
// otherwise a correct delivery reads as "sent with a link to another copy", or a listed duplicate as unlisted.
describe('chaos networks: copies on the platform, named as our clients record them', () => {
  const started = startMemoryTestSandbox({ fetchImage: async (url) => (url === IMAGE_URL ? jpeg : null) });

  it('every profile fits its network (the sandbox would refuse it) and all nine networks are in the run', () => {
    for (const { profile, platform } of CHAOS_PROFILES) expect(resolveProfile(platform, profile)).toBe(profile);
    expect(new Set(CHAOS_PROFILES.map((p) => p.platform))).toEqual(new Set([...CHAOS_NETWORKS, ...VIDEO_NETWORKS]));
  });

  it('the posts go round the accounts, TikTok and YouTube only up to their run caps', () => {
    const accounts = CHAOS_PROFILES.map((p) => ({ platform: p.platform }));
    const assigned = assignPosts(accounts, 2_000);
    const count = (platform: string) => assigned.filter((k) => accounts[k]!.platform === platform).length;
    expect(assigned).toHaveLength(2_000);
    expect(count('tiktok')).toBe(RUN_CAPS.tiktok!.perAccount);
    expect(count('youtube')).toBe(RUN_CAPS.youtube!.perNetwork);
    expect(count('x')).toBeGreaterThan(200);
  });

  // Facebook's page posts are named `{page-id}_{post-id}`.
  for (const platform of CHAOS_NETWORKS) {
    it(`${platform}: the copy's id is the external id the client returned`, async () => {
      const sandbox = await started;
      const connected = await sandbox.connectAccount(platform);
      const text = `chaos networks ${platform} ${randomUUID().slice(0, 8)}`;
      // A network that needs a file gets the run's image; its container is kept between the two steps.
      const media = NEEDS_MEDIA.has(platform) ? [image] : undefined;
      const { result } = await attemptKeepingState(connected.client, { text, createdAt: new Date(), media }, {}, 5_000);
      expect(result.outcome, result.reason).toBe('sent');
      const account: ChaosAccount = {
        id: randomUUID(),
        platform,
        profile: `default/${platform}`,
        profileName: resolveProfile(platform, undefined),
        sandbox: connected.sandboxAccount,
      };
      const copies = await copiesOnPlatform(sandbox.store, [account]);
      expect(copies.get(text)).toEqual([{ id: result.externalId, text, parent: null }]);
    });
  }

  // A thread's second part on LinkedIn and Facebook is the page's first comment: its id and its parent named as the
  // client recorded each (a comment URN under the post's activity; `{post-id}_{comment-id}` under `{page}_{post}`).
  for (const platform of ['linkedin', 'facebook'] as const) {
    it(`${platform}: a first comment's copy is named by the comment's external id, its parent by the post's`, async () => {
      const sandbox = await started;
      const connected = await sandbox.connectAccount(platform);
      const text = `chaos networks ${platform} post ${randomUUID().slice(0, 8)}`;
      const post = (await attemptKeepingState(connected.client, { text, createdAt: new Date() }, {}, 5_000)).result;
      expect(post.outcome, post.reason).toBe('sent');
      const reply = `chaos networks ${platform} comment ${randomUUID().slice(0, 8)}`;
      const { result } = await attemptKeepingState(
        connected.client,
        { text: reply, kind: 'reply', inReplyTo: post.externalId! },
        {},
        5_000,
      );
      expect(result.outcome, result.reason).toBe('sent');
      const account: ChaosAccount = {
        id: randomUUID(),
        platform,
        profile: `default/${platform}`,
        profileName: resolveProfile(platform, undefined),
        sandbox: connected.sandboxAccount,
      };
      const copies = await copiesOnPlatform(sandbox.store, [account]);
      expect(copies.get(reply)).toEqual([{ id: result.externalId, text: reply, parent: post.externalId }]);
    });
  }
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startMemoryTestSandbox } from '@/testing/sandbox';
import { resolveProfile } from '@/sandbox/behaviour/profiles';
import { CHAOS_PROFILES, copiesOnPlatform, type ChaosAccount } from './chaos-networks';

// The verdict's copies must be named as our database names the post it sent (`external_id`), on every network:
// otherwise a correct delivery reads as "sent with a link to another copy", or a listed duplicate as unlisted.
describe('chaos networks: copies on the platform, named as our clients record them', () => {
  const started = startMemoryTestSandbox();

  it('every profile fits its network (the sandbox would refuse it) and all five networks are in the run', () => {
    for (const { profile, platform } of CHAOS_PROFILES) expect(resolveProfile(platform, profile)).toBe(profile);
    expect(new Set(CHAOS_PROFILES.map((p) => p.platform))).toEqual(
      new Set(['x', 'mastodon', 'bluesky', 'linkedin', 'threads']),
    );
  });

  // Facebook is named too (its page posts are `{page-id}_{post-id}`), though its 100 posts a day per account keep it
  // out of the run's default load.
  for (const platform of ['x', 'mastodon', 'bluesky', 'linkedin', 'threads', 'facebook'] as const) {
    it(`${platform}: the copy's id is the external id the client returned`, async () => {
      const sandbox = await started;
      const connected = await sandbox.connectAccount(platform);
      const text = `chaos networks ${platform} ${randomUUID().slice(0, 8)}`;
      const result = await connected.client.publish({
        text,
        kind: 'post',
        idempotencyKey: randomUUID(),
        createdAt: new Date(),
        timeoutMs: 5_000,
      });
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
});

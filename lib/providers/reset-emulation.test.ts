import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '@/testing/sandbox';

// Inside Next a route handler cannot destroy its socket; the sandbox there answers a reset with a 200
// whose body breaks off. The clients must read that as ambiguous too (published, id unknown).
const sandbox = await startTestSandbox({ destroySocketOnReset: false });

describe('reset after commit, as the Next route emulates it (body cut off mid-stream)', () => {
  for (const platform of ['x', 'mastodon'] as const) {
    it(`${platform}: ambiguous with the 200 status as evidence, one copy`, async () => {
      const account = await sandbox.connectAccount(platform);
      await sandbox.setFaults(account.sandboxAccount.id, { resetAfterCommit: 1 });
      const result = await account.client.publish({
        text: sandbox.uniqueText('cut'),
        kind: 'post',
        idempotencyKey: randomUUID(),
        timeoutMs: 2_000,
      });
      expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'success-body-lost', httpStatus: 200 });
      expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    });
  }
});

import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The sandbox's fences (eslint.config.mjs) hold only while `npm run lint` fails on a crossing: lint small snippets
// as if they sat at these paths, with the repo's own config.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '..') });

async function fenceErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const useIt = (specifier: string) => `import * as m from '${specifier}';\nexport const used = m;\n`;

describe('lint fences around the sandbox', () => {
  it.each([
    ['lib/publishing/x.ts', '@/sandbox/store/memory-store'],
    ['components/sandbox/panel.tsx', '@/sandbox/behaviour/profiles'],
    ['app/(dashboard)/sandbox/actions.ts', '@/sandbox/http/control'],
    ['db/queries/accounts.ts', '@/sandbox/db/schema'],
  ])('product code %s importing %s fails lint', async (file, specifier) => {
    expect(await fenceErrors(file, useIt(specifier))).toEqual([expect.stringMatching(/import the sandbox/)]);
  });

  it.each([
    ['sandbox/dialects/x/api.ts', '@/lib/publishing/worker'],
    ['sandbox/dialects/x/api.ts', '@/lib/providers/x/text-length'],
    ['sandbox/store/pg-store.ts', '@/lib/sandbox/connect'],
    ['sandbox/oauth/oauth.ts', '@/lib/oauth/pkce'],
    ['sandbox/http/router.ts', '@/db/queries/accounts'],
  ])('sandbox code %s importing %s fails lint', async (file, specifier) => {
    expect(await fenceErrors(file, useIt(specifier))).toEqual([expect.stringMatching(/SANDBOX_MAY_IMPORT/)]);
  });

  it.each([
    ['lib/sandbox/app.ts', '@/sandbox/store/pg-store'],
    ['app/api/sandbox/[...path]/route.ts', '@/sandbox/http/router'],
    ['lib/publishing/thread.test.ts', '@/sandbox/store/types'],
    ['scripts/chaos.mts', '@/sandbox/http/node-server'],
    ['testing/sandbox.ts', '@/sandbox/store/memory-store'],
    ['testing/sandbox/harness.ts', '@/sandbox/store/memory-store'],
    ['sandbox/dialects/x/api.ts', '@/sandbox/behaviour/faults'],
    ['sandbox/store/pg-store.ts', '@/db/client'],
    ['sandbox/http/router.ts', '@/lib/http/problem'],
    ['sandbox/http/router.ts', '@/lib/logging/logger'],
    ['sandbox/dialects/linkedin/api.test.ts', '@/lib/sandbox/connect'],
    ['lib/publishing/x.ts', '@/lib/sandbox/connect'],
  ])('%s may import %s', async (file, specifier) => {
    expect(await fenceErrors(file, useIt(specifier))).toEqual([]);
  });
});

// The fence in eslint.config.mjs, proved through ESLint itself: production code may not import test support
// (testing/), while tests beside it, scripts and testing/ itself may. `npm run lint` enforces it on the tree.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });
// Its own rule (the typescript-eslint twin), so it adds to the layer and sandbox fences instead of replacing them.
const FENCE = '@typescript-eslint/no-restricted-imports';

async function fenceErrors(filePath: string, specifier: string) {
  const code = `import { makeWorkspace } from '${specifier}';\nexport const make = makeWorkspace;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId === FENCE).map((m) => `${m.line}: ${m.message}`);
}

describe('the test-support fence (eslint.config.mjs)', () => {
  it.each([
    ['lib/publishing/x.ts', '@/testing/db/factories'],
    ['lib/publishing/x.ts', '../../testing/db/factories'],
    ['app/api/v1/x/route.ts', '@/testing/db/factories'],
    ['components/x/y.tsx', '@/testing/db/factories'],
    ['db/queries/x.ts', '@/testing/db/factories'],
    ['sandbox/x.ts', '@/testing/db/factories'],
    ['scripts/db-seed.mts', '@/testing/db/factories'],
    ['scripts/seed/x.ts', '@/testing/db/factories'],
  ])('%s may not import %s', async (file, specifier) => {
    const errors = await fenceErrors(file, specifier);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/must not import test support/);
  });

  it.each([
    ['lib/publishing/x.test.ts', '@/testing/db/factories'],
    ['components/x/y.test.tsx', '@/testing/db/factories'],
    ['testing/x.ts', '@/testing/db/factories'],
    ['testing/x.ts', './db/factories'],
    ['scripts/bench.mts', '@/testing/db/factories'],
    ['e2e/x/y.spec.ts', '../../testing/db/factories'],
    // Not test support: a package, and a module whose name only starts with "testing".
    ['lib/publishing/x.ts', '@testing-library/react'],
    ['lib/publishing/x.ts', '@/lib/testing-notes'],
  ])('%s may import %s', async (file, specifier) => {
    expect(await fenceErrors(file, specifier)).toEqual([]);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The house's fences (eslint.config.mjs, docs/architecture.md#fences) as `npm run lint` applies them: each snippet
// is linted as if it lived at that path, with the repository's own configuration.
const eslint = new ESLint({ cwd: process.cwd() });
const madgeBin = path.join(path.dirname(createRequire(import.meta.url).resolve('madge/package.json')), 'bin/cli.js');

async function fenceErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('lint fences: who may import whom', () => {
  it.each([
    [
      'db/ importing lib/ (alias)',
      'db/queries/example.ts',
      "import { getEnv } from '@/lib/env';\nexport const e = getEnv;\n",
    ],
    [
      'db/ importing lib/ (relative)',
      'db/example.ts',
      "import { getEnv } from '../lib/env';\nexport const e = getEnv;\n",
    ],
    [
      'lib/ importing a page or route',
      'lib/posts/example.ts',
      "import { GET } from '@/app/api/health/route';\nexport const g = GET;\n",
    ],
    [
      'lib/ importing a component',
      'lib/posts/example.ts',
      "import { Button } from '@/components/ui/button';\nexport const b = Button;\n",
    ],
    [
      'components/ importing app/',
      'components/ui/example.tsx',
      "import { GET } from '@/app/api/health/route';\nexport const g = GET;\n",
    ],
  ])('%s is an error', async (_name, filePath, code) => {
    expect(await fenceErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    ['db/ importing db/', 'db/queries/example.ts', "import { posts } from '@/db/schema';\nexport const p = posts;\n"],
    ['lib/ importing db/', 'lib/posts/example.ts', "import { posts } from '@/db/schema';\nexport const p = posts;\n"],
    [
      'app/ importing components/ and lib/',
      'app/example/page.tsx',
      "import { Button } from '@/components/ui/button';\nimport { getEnv } from '@/lib/env';\nexport const x = [Button, getEnv];\n",
    ],
    [
      'a test beside db/ code driving lib/',
      'db/queries/example.test.ts',
      "import { getEnv } from '@/lib/env';\nexport const e = getEnv;\n",
    ],
  ])('%s is allowed', async (_name, filePath, code) => {
    expect(await fenceErrors(filePath, code)).toEqual([]);
  });
});

describe('the fences add up: one file can break several at once', () => {
  it('a lib/ file importing a component, the sandbox and test support gets one error for each', async () => {
    const code = [
      "import { Button } from '@/components/ui/button';",
      "import { createMemoryStore } from '@/sandbox/store/memory-store';",
      "import { makeWorkspace } from '@/testing/db/factories';",
      'export const x = [Button, createMemoryStore, makeWorkspace];',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: 'lib/posts/example.ts' });
    const rules = result!.messages.map((m) => `${m.line}:${m.ruleId}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        '1:no-restricted-imports',
        '2:no-restricted-imports',
        '3:@typescript-eslint/no-restricted-imports',
      ]),
    );
  });
});

describe('lint: no file cycle (npm run lint:cycles)', () => {
  const lintCycles = (cwd: string, folders: string[]) =>
    spawnSync(process.execPath, [madgeBin, '--circular', '--no-spinner', '--extensions', 'ts,tsx,mts', ...folders], {
      cwd,
      encoding: 'utf8',
    });

  it('a cycle, even through a type import, fails it; the same files without it pass', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-cycles-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
      writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './c';\nexport const b: A = 1;\n");
      writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport type A = number;\nexport const c = a;\n");
      const cyclic = lintCycles(dir, ['.']);
      expect(cyclic.status).toBe(1);
      expect(cyclic.stdout).toMatch(/a\.ts > b\.ts > c\.ts/);

      writeFileSync(path.join(dir, 'c.ts'), 'export type A = number;\n');
      expect(lintCycles(dir, ['.']).status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

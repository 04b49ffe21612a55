import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerEnum } from '@/db/schema';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { PROVIDERS } from '@/lib/providers/registry';
import { DEFAULT_PROFILE } from '@/sandbox/behaviour/profiles';
import { sandboxPlatformEnum } from '@/sandbox/db/schema';
import { SANDBOX_DIALECTS } from '@/sandbox/dialects/registry';

const root = path.resolve(import.meta.dirname, '..');
const DOC = 'docs/architecture.md';
const doc = readFileSync(path.join(root, DOC), 'utf8');
const SOURCE_DIRS = ['app', 'components', 'db', 'lib', 'sandbox', 'scripts', 'e2e', 'testing'];
const SOURCE_FILE = /\.(ts|tsx|mts)$/;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchors = new Set([...doc.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

function sourceFiles(): string[] {
  const files = SOURCE_DIRS.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)),
  ).filter((f) => SOURCE_FILE.test(f) && !f.includes('node_modules'));
  return [...files, 'proxy.ts', 'instrumentation.ts', 'README.md'];
}

describe('docs/architecture.md, the page code comments cite', () => {
  it('has the anchors the code cites (the walk finds citations)', () => {
    const cited = new Map<string, string>();
    for (const file of sourceFiles()) {
      for (const m of readFileSync(path.join(root, file), 'utf8').matchAll(/docs\/architecture\.md#([a-z0-9-]+)/g))
        cited.set(m[1]!, file);
    }
    expect(cited.size).toBeGreaterThan(5);
    for (const [anchor, file] of cited) expect(anchors.has(anchor), `${file} cites #${anchor}`).toBe(true);
  });

  it('no code comment cites a DESIGN file that is not in the repository', () => {
    const self = path.relative(root, import.meta.filename);
    const citing = sourceFiles().filter((f) => f !== self && /DESIGN §/.test(readFileSync(path.join(root, f), 'utf8')));
    expect(citing).toEqual([]);
  });

  it('links only to its own headings', () => {
    const links = [...doc.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !anchors.has(l))).toEqual([]);
  });

  it('names only files and folders that exist (placeholders and globs aside)', () => {
    const named = [
      ...doc.matchAll(/`((?:app|components|db|lib|sandbox|scripts|e2e|testing|public|docs)\/[^`\s]*)`/g),
    ].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(50);
    const concrete = named.filter((p) => !/[<*]/.test(p));
    expect(concrete.filter((p) => !existsSync(path.join(root, p)))).toEqual([]);
  });
});

describe('docs/architecture.md#add-a-network holds', () => {
  const names = [...providerEnum.enumValues].sort();

  it('the provider enum, the registry, the catalog, the sandbox enum and the dialects list the same networks', () => {
    expect(Object.keys(PROVIDERS).sort()).toEqual(names);
    expect(Object.keys(PROVIDER_META).sort()).toEqual(names);
    expect([...sandboxPlatformEnum.enumValues].sort()).toEqual(names);
    expect(Object.keys(SANDBOX_DIALECTS).sort()).toEqual(names);
    expect(Object.keys(DEFAULT_PROFILE).sort()).toEqual(names);
  });

  it('each network is a provider folder and a dialect folder', () => {
    for (const name of names) {
      expect(existsSync(path.join(root, 'lib/providers', name, 'index.ts')), `lib/providers/${name}/`).toBe(true);
      expect(existsSync(path.join(root, 'sandbox/dialects', name, 'api.ts')), `sandbox/dialects/${name}/`).toBe(true);
    }
  });

  it('a dialect runs the OAuth server exactly when its network connects through OAuth', () => {
    for (const name of names) expect(SANDBOX_DIALECTS[name].oauth, name).toBe(PROVIDERS[name].oauth !== null);
  });
});

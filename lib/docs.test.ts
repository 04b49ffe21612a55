// README.md and the guides in docs/ stay true to the repository: every link and anchor resolves, every `npm run`
// names a script of package.json, every repository path they name exists, and the README stays short. Comments that
// cite a page (`docs/<guide>.md#<anchor>`) cite a heading it has, and nothing cites an issue of a tracker that is not
// in the repository. Each check lists its offenders.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const exists = (file: string) => existsSync(path.join(root, file));

const README_MAX_LINES = 250;
const GUIDES = ['configuration', 'api', 'webhooks', 'networks', 'sandbox', 'operations', 'security', 'architecture'];
const PAGES = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** Inline code: one to three backticks, closed by as many; it may wrap a line, never a paragraph. */
const INLINE_CODE = /(`{1,3})(?!`)((?:(?!\n[ \t]*\n)[\s\S])+?)(?<!`)\1(?!`)/g;

type Page = {
  file: string;
  /** The text outside fenced blocks, inline code kept. */
  prose: string;
  fences: { lang: string; body: string }[];
  code: string[];
};

function parse(file: string): Page {
  const kept: string[] = [];
  const fences: Page['fences'] = [];
  let open: { marker: string; lang: string; lines: string[] } | null = null;
  for (const line of read(file).split('\n')) {
    const fence = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (open && fence && fence[1]!.startsWith(open.marker) && !fence[2]) {
      fences.push({ lang: open.lang, body: open.lines.join('\n') });
      open = null;
      kept.push('');
    } else if (open) {
      open.lines.push(line);
      kept.push('');
    } else if (fence) {
      open = { marker: fence[1]!, lang: fence[2]!, lines: [] };
      kept.push('');
    } else kept.push(line);
  }
  const prose = kept.join('\n');
  const code = [...prose.matchAll(INLINE_CODE)].map((m) => m[2]!.replace(/\s+/g, ' ').trim());
  return { file, prose, fences, code };
}
const pages = PAGES.map(parse);
const byFile = new Map(pages.map((p) => [p.file, p]));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens; a repeated heading gets -1, -2… */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of (byFile.get(file) ?? parse(file)).prose.matchAll(/^#{1,6} +(.+?)(?: +#+)? *$/gm)) {
    const slug = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

/** Markdown links and images outside code: `[text](target)`, `![alt](target "title")`. */
function linksOf(page: Page): string[] {
  const prose = page.prose.replace(INLINE_CODE, 'code');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** A link's problem, or null: its file must exist, and an anchor into a page must be one of its headings. */
function brokenLink(from: string, target: string): string | null {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return null; // https:, mailto:
  const [pathPart = '', anchor] = target.split('#') as [string, string | undefined];
  const file = pathPart === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), pathPart));
  if (file.startsWith('..') || !exists(file)) return `${target}: no file ${file}`;
  if (anchor === undefined || !file.endsWith('.md')) return null;
  return anchorsOf(file).has(anchor) ? null : `${target}: ${file} has no heading #${anchor}`;
}

/** The repository path an inline code span names, or null when it names none or holds a placeholder or glob. */
function repoPathIn(code: string): string | null {
  if (/[\s<>…*{}$=,:@]/.test(code) || code.startsWith('/')) return null;
  // Of the dot-folders only .ci/ is in the repository; .data/, .next/ and .build/ are made at run time.
  if (code.startsWith('.')) return code.startsWith('.ci/') ? code : null;
  const prefixed = /^(?:app|components|db|lib|scripts|e2e|docs|public)\//.test(code);
  const withExtension = code.includes('/') && /\.[A-Za-z][A-Za-z0-9]*$/.test(code);
  return prefixed || withExtension ? code.replace(/\/$/, '') : null;
}

/** Repository paths a shell block names as arguments (`bash scripts/ci/production-check.sh`, `npx vitest run x`). */
function shellPathsIn(body: string): string[] {
  return [...body.matchAll(/(?<=^|[\s"'=(])((?:app|components|db|lib|scripts|e2e|docs|public|\.ci)\/[^\s"'`;|&)]*)/gm)]
    .map((m) => m[1]!)
    .filter((p) => !/[<>…*{}$]/.test(p));
}
const SHELL = new Set(['bash', 'sh', 'shell', 'console', '']);

/** The production build's compiled scripts (`.build/scripts/<name>.mjs`), from scripts/build-scripts.mjs. */
const BUILT_SCRIPTS = new Set(
  [...(/const SCRIPTS = \[([^\]]*)\]/.exec(read('scripts/build-scripts.mjs'))?.[1] ?? '').matchAll(/'([\w-]+)'/g)].map(
    (m) => m[1]!,
  ),
);

const SCRIPTS = new Set(Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>));
function npmScriptsIn(text: string): string[] {
  const run = [...text.matchAll(/\bnpm\s+run(?:\s+(?:-s|--silent))?\s+([\w:.-]+)/g)].map((m) => m[1]!);
  const aliases = [...text.matchAll(/\bnpm\s+(start|test)\b/g)].map((m) => m[1]!);
  return [...run, ...aliases];
}

/** Source and config files whose comments may cite a page. */
function citingFiles(): string[] {
  const self = path.relative(root, import.meta.filename);
  const sources = ['app', 'components', 'db', 'lib', 'scripts', 'e2e', 'testing'].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((f) => path.join(dir, f))
      .filter((f) => /\.(ts|tsx|mts|mjs|sh)$/.test(f) && !f.includes('node_modules')),
  );
  const config = ['proxy.ts', 'instrumentation.ts', 'Dockerfile', 'compose.yaml', '.env.example', 'SECURITY.md'];
  return [...sources, ...config.filter(exists)].filter((f) => f !== self);
}

describe('README.md and the guides in docs/', () => {
  it(`the README is at most ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').split('\n').length - 1;
    expect(lines, `README.md has ${lines} lines: move detail into a guide in docs/`).toBeLessThanOrEqual(
      README_MAX_LINES,
    );
  });

  it('every guide the README promises exists and the README links each page of docs/', () => {
    expect(GUIDES.filter((g) => !exists(`docs/${g}.md`))).toEqual([]);
    const linked = new Set(linksOf(byFile.get('README.md')!).map((l) => l.split('#')[0]));
    expect(PAGES.filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
  });

  it('every relative link points at a file that exists, and every #anchor at a heading of its page', () => {
    const links = pages.flatMap((p) => linksOf(p).map((target) => ({ file: p.file, target })));
    expect(links.length).toBeGreaterThan(100);
    const broken = links.flatMap(({ file, target }) => {
      const problem = brokenLink(file, target);
      return problem ? [`${file}: ${problem}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('every `npm run <script>` names a script of package.json', () => {
    const named = pages.flatMap((p) =>
      [...p.fences.map((f) => f.body), ...p.code].flatMap((text) =>
        npmScriptsIn(text).map((s) => ({ file: p.file, s })),
      ),
    );
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter(({ s }) => !SCRIPTS.has(s)).map(({ file, s }) => `${file}: npm run ${s}`)).toEqual([]);
  });

  it('every repository path in inline code or a shell block exists (placeholders and globs aside)', () => {
    const named = pages.flatMap((p) => [
      ...p.code.flatMap((c) => {
        const named = repoPathIn(c);
        return named ? [{ file: p.file, named }] : [];
      }),
      ...p.fences
        .filter((f) => SHELL.has(f.lang))
        .flatMap((f) => shellPathsIn(f.body).map((named) => ({ file: p.file, named }))),
    ]);
    expect(named.length).toBeGreaterThan(100);
    expect(named.filter(({ named }) => !exists(named)).map(({ file, named }) => `${file}: ${named}`)).toEqual([]);
  });

  it('every compiled script a page runs (`.build/scripts/<name>.mjs`) is one `npm run build` compiles', () => {
    const named = pages.flatMap((p) =>
      [...p.fences.map((f) => f.body), ...p.code].flatMap((text) =>
        [...text.matchAll(/\.build\/scripts\/([\w-]+)\.mjs/g)].map((m) => ({ file: p.file, name: m[1]! })),
      ),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(BUILT_SCRIPTS.size).toBeGreaterThan(3);
    expect(named.filter(({ name }) => !BUILT_SCRIPTS.has(name)).map(({ file, name }) => `${file}: ${name}`)).toEqual(
      [],
    );
  });
});

describe('what code and config cite of the docs', () => {
  it('every cited page exists and every cited #anchor is one of its headings', () => {
    const cited = citingFiles().flatMap((file) =>
      [...read(file).matchAll(/\b((?:docs\/[\w-]+|README)\.md)(?:#([\w-]+))?/g)].map((m) => ({
        file,
        page: m[1]!,
        anchor: m[2],
      })),
    );
    expect(cited.length).toBeGreaterThan(20);
    const broken = cited.filter(({ page, anchor }) => !exists(page) || (anchor && !anchorsOf(page).has(anchor)));
    expect(broken.map(({ file, page, anchor }) => `${file}: ${page}${anchor ? `#${anchor}` : ''}`)).toEqual([]);
  });

  it('nothing cites an issue of a tracker that is not in the repository', () => {
    const citing = [...citingFiles(), ...PAGES].flatMap((file) =>
      [...read(file).matchAll(/.*\bissues? \d+.*/gi)].map((m) => `${file}: ${m[0].trim()}`),
    );
    expect(citing).toEqual([]);
  });
});

#!/usr/bin/env python3
"""One home for test support: moves every test helper into the top-level testing/ folder.

Run from anywhere inside the repository: `python3 scripts/refactor/move-testing.py`. It
  1. `git mv`s each helper to its place under testing/ (a source already moved is skipped; a helper another
     refactor moved elsewhere is found by its alternative paths),
  2. rewrites every import specifier that reaches a moved file, or that leaves a moved file, by resolving it to the
     file it names (so it works whatever other moves happened before it), keeping `@/` and relative styles,
  3. rewrites repository paths named in configs, comments and docs (vitest.config.mts, docs/*.md, …),
  4. moves TEST_ENCRYPTION_KEY out of the sandbox harness into testing/keys.ts and points its importers there,
  5. runs Prettier on the files it changed.
It is idempotent: a second run changes nothing.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(subprocess.check_output(['git', 'rev-parse', '--show-toplevel'], text=True).strip())
os.chdir(ROOT)

# (old path, new path, alternative old paths another refactor may have moved the file to: globs)
FILE_MOVES: list[tuple[str, str, list[str]]] = [
    ('db/testing/admin.ts', 'testing/db/admin.ts', []),
    ('db/testing/test-database.ts', 'testing/db/test-database.ts', []),
    ('db/testing/global-setup.ts', 'testing/db/global-setup.ts', []),
    ('db/testing/factories.ts', 'testing/db/factories.ts', []),
    ('db/testing/server-only.ts', 'testing/server-only.ts', []),
    ('db/testing/api-fixture.ts', 'testing/api-fixture.ts', []),
    ('db/testing/race.ts', 'testing/race.ts', []),
    ('db/testing/simulation.ts', 'testing/simulation/database.ts', []),
    ('lib/oauth/testing.ts', 'testing/oauth.ts', ['sandbox/**/oauth/testing.ts']),
    (
        'lib/sandbox/testing/harness.ts',
        'testing/sandbox.ts',
        ['sandbox/testing/harness.ts', 'sandbox/*/testing/harness.ts', 'sandbox/harness.ts', 'sandbox/testing.ts'],
    ),
    ('lib/providers/testing/wire-servers.ts', 'testing/wire/servers.ts', []),
    ('lib/providers/testing/tls-fixture.ts', 'testing/wire/tls-fixture.ts', []),
    ('lib/providers/testing/fault-proxy.ts', 'testing/wire/fault-proxy.ts', []),
    ('lib/providers/testing/pds-fixture.ts', 'testing/pds/fixture.ts', []),
    ('lib/providers/testing/pds-harness.ts', 'testing/pds/harness.ts', []),
    ('lib/auth/testing/soft-authenticator.ts', 'testing/soft-authenticator.ts', []),
    ('lib/metrics/testing.ts', 'testing/metrics.ts', []),
    ('lib/media/testing/images.ts', 'testing/images.ts', []),
    ('lib/publishing/testing.ts', 'testing/publisher.ts', []),
    ('lib/reconcile/testing.ts', 'testing/reconciler.ts', []),
    ('lib/webhooks/testing/receiver.ts', 'testing/webhook-receiver.ts', []),
]
# Folders that move whole: every file in them goes to the same relative place under the new folder.
DIR_MOVES = [('lib/simulation', 'testing/simulation')]
# Folders that are split up: a mention of the folder itself (not of a file in it) becomes the new folder.
DIR_MENTIONS = [
    ('db/testing', 'testing'),
    ('lib/providers/testing', 'testing/wire'),
    ('lib/sandbox/testing', 'testing'),
    ('lib/auth/testing', 'testing'),
    ('lib/media/testing', 'testing'),
    ('lib/webhooks/testing', 'testing'),
]

KEYS_FILE = 'testing/keys.ts'
HARNESS = 'testing/sandbox.ts'
KEY_LINE = "export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');"
KEYS_TEXT = f"""// Keys for tests only: fixed, so a failure replays with the same bytes; never a deployment's.

/** APP_ENCRYPTION_KEY for tests: seals account credentials, API tokens and OAuth state. */
{KEY_LINE}
"""

CODE_DIRS = ['app', 'components', 'db', 'lib', 'scripts', 'e2e', 'sandbox', 'testing']
CODE_EXT = ('.ts', '.tsx', '.mts', '.mjs', '.cts', '.cjs', '.js')
RESOLVE_EXT = ['.ts', '.tsx', '.mts', '.mjs', '.cts', '.js', '.cjs']
TEXT_FILES_EXTRA = ['tsconfig.json', 'package.json', '.ci/run', 'Dockerfile', 'compose.yaml', 'SECURITY.md']
SKIP = ('scripts/refactor/', 'db/migrations/', 'node_modules/')

SPECIFIER = re.compile(
    r"""(?P<pre>\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.(?:mock|doMock|unmock|importActual|importMock)\s*\(\s*)(?P<q>['"])(?P<spec>\.{1,2}/[^'"\n]*|@/[^'"\n]*)(?P=q)"""
)


def git_files() -> list[str]:
    out = subprocess.check_output(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], text=True)
    return sorted({f for f in out.split('\0') if f and Path(f).is_file()})


def top(path: str) -> str:
    return path.split('/', 1)[0] if '/' in path else ''


def in_scope_code(path: str) -> bool:
    if path.startswith(SKIP) or not path.endswith(CODE_EXT):
        return False
    return top(path) in CODE_DIRS or '/' not in path


def in_scope_text(path: str) -> bool:
    if path.startswith(SKIP) or path == 'README.md':
        return False
    if in_scope_code(path) or path in TEXT_FILES_EXTRA:
        return True
    return path.startswith('docs/') and path.endswith('.md')


def find_source(old: str, new: str, alternatives: list[str], files: set[str]) -> str | None:
    if old in files:
        return old
    if new in files:
        return None
    found = [f for f in sorted(files) for alt in alternatives if fnmatch.fnmatch(f, alt)]
    if len(found) == 1:
        return found[0]
    sys.exit(f'move-testing: neither {old} nor {new} exists' + (f' (candidates: {found})' if found else ''))


def plan_moves(files: set[str]) -> dict[str, str]:
    moves: dict[str, str] = {}
    for old, new, alternatives in FILE_MOVES:
        source = find_source(old, new, alternatives, files)
        if source:
            moves[source] = new
    for old_dir, new_dir in DIR_MOVES:
        for f in sorted(files):
            if f.startswith(old_dir + '/'):
                moves[f] = new_dir + f[len(old_dir) :]
    return moves


def resolve(importer: str, spec: str, files: set[str]) -> tuple[str, bool, bool] | None:
    """The repository file `spec` names from `importer`: (path, spec had the extension, reached via index)."""
    if spec.startswith('@/'):
        base = os.path.normpath(spec[2:])
    else:
        base = os.path.normpath(os.path.join(os.path.dirname(importer), spec))
    if base in files:
        return base, True, False
    for ext in RESOLVE_EXT:
        if base + ext in files:
            return base + ext, False, False
    if base.endswith('.js'):
        for ext in ('.ts', '.tsx'):
            if base[:-3] + ext in files:
                return base[:-3] + ext, True, False
    for ext in ('.ts', '.tsx', '.mts', '.js'):
        if f'{base}/index{ext}' in files:
            return f'{base}/index{ext}', False, True
    return None


def strip_ext(path: str) -> str:
    for ext in RESOLVE_EXT:
        if path.endswith(ext):
            return path[: -len(ext)]
    return path


def new_specifier(spec: str, importer: str, target: str, had_ext: bool, via_index: bool, both_moved=False) -> str:
    if via_index:
        named = os.path.dirname(target)
    else:
        named = target if had_ext else strip_ext(target)
    # Relative stays relative within one top-level folder, and in e2e/ and scripts/ (their own convention);
    # anything else reaching across folders uses the @/ alias. Helpers that moved together name each other relatively.
    same_top = top(importer) == top(target)
    if both_moved and same_top:
        pass
    elif spec.startswith('@/') or (not same_top and top(importer) not in ('e2e', 'scripts', '')):
        return '@/' + named
    rel = os.path.relpath(named, os.path.dirname(importer) or '.')
    return rel if rel.startswith('.') else './' + rel


def rewrite_imports(path: str, text: str, files: set[str], moves: dict[str, str]) -> str:
    new_path = moves.get(path, path)

    def replace(m: re.Match[str]) -> str:
        resolved = resolve(path, m['spec'], files)
        if not resolved:
            return m[0]
        target, had_ext, via_index = resolved
        if target not in moves and path not in moves:
            return m[0]
        both_moved = target in moves and path in moves
        spec = new_specifier(m['spec'], new_path, moves.get(target, target), had_ext, via_index, both_moved)
        return m['pre'] + m['q'] + spec + m['q']

    return SPECIFIER.sub(replace, text)


def path_patterns(moves: dict[str, str]) -> list[tuple[re.Pattern[str], str]]:
    # A repository path in prose or config: not inside a longer path, except after `../` (links from docs/).
    before = r'(?:(?<=\.\./)|(?<![\w./@-]))'
    patterns: list[tuple[re.Pattern[str], str]] = []
    pairs = {**{old: new for old, new, _ in FILE_MOVES}, **moves}
    for old, new in sorted(pairs.items(), key=lambda p: -len(p[0])):
        patterns.append((re.compile(before + re.escape(old) + r'(?![\w-])'), new))
        patterns.append((re.compile(before + re.escape(strip_ext(old)) + r'(?![\w-]|\.\w)'), strip_ext(new)))
    for old, new in DIR_MOVES:
        patterns.append((re.compile(before + re.escape(old) + r'(?=/|[^\w-]|$)'), new))
    for old, new in DIR_MENTIONS:
        patterns.append((re.compile(before + re.escape(old) + r'(?=/?(?:[^\w./-]|$)|/\*)'), new))
    return patterns


def rewrite_paths(text: str, patterns: list[tuple[re.Pattern[str], str]]) -> str:
    for pattern, new in patterns:
        text = pattern.sub(new, text)
    return text


IMPORT_STATEMENT = re.compile(r"import\s*\{(?P<names>[^}]*)\}\s*from\s*(?P<q>['\"])(?P<spec>[^'\"]+)(?P=q);?")


def move_key(files: set[str]) -> list[str]:
    """TEST_ENCRYPTION_KEY from the sandbox harness to testing/keys.ts; returns the files changed."""
    changed: list[str] = []
    if HARNESS not in files:
        return changed
    harness = Path(HARNESS).read_text()
    if KEY_LINE in harness:
        Path(KEYS_FILE).write_text(KEYS_TEXT)
        files.add(KEYS_FILE)
        harness = harness.replace(KEY_LINE + '\n\n', '').replace(KEY_LINE + '\n', '')
        harness = re.sub(
            r"(import [^;]*? from '(?:\./db/test-database|@/testing/db/test-database)';\n)",
            r"\1import { TEST_ENCRYPTION_KEY } from './keys';\n",
            harness,
            count=1,
        )
        if "from './keys'" not in harness:
            harness = "import { TEST_ENCRYPTION_KEY } from './keys';\n" + harness
        Path(HARNESS).write_text(harness)
        changed += [KEYS_FILE, HARNESS]
    for path in sorted(files):
        if not in_scope_code(path) or path in (HARNESS, KEYS_FILE):
            continue
        text = Path(path).read_text()
        if 'TEST_ENCRYPTION_KEY' not in text:
            continue

        def split(m: re.Match[str]) -> str:
            resolved = resolve(path, m['spec'], files)
            names = [n.strip() for n in m['names'].split(',') if n.strip()]
            if not resolved or resolved[0] != HARNESS or 'TEST_ENCRYPTION_KEY' not in names:
                return m[0]
            keys_spec = new_specifier(m['spec'], path, KEYS_FILE, False, False)
            keys_import = f"import {{ TEST_ENCRYPTION_KEY }} from {m['q']}{keys_spec}{m['q']};"
            rest = [n for n in names if n != 'TEST_ENCRYPTION_KEY']
            if not rest:
                return keys_import
            return f"import {{ {', '.join(rest)} }} from {m['q']}{m['spec']}{m['q']};\n{keys_import}"

        updated = IMPORT_STATEMENT.sub(split, text)
        if updated != text:
            Path(path).write_text(updated)
            changed.append(path)
    return changed


def main() -> None:
    files = set(git_files())
    moves = plan_moves(files)
    patterns = path_patterns(moves)

    # Every new text is computed from the tree as it was, then the files move, then the texts are written.
    updates: dict[str, str] = {}
    for path in sorted(files):
        if not in_scope_text(path):
            continue
        text = Path(path).read_text()
        updated = rewrite_imports(path, text, files, moves) if in_scope_code(path) else text
        updated = rewrite_paths(updated, patterns)
        if updated != text or path in moves:
            updates[moves.get(path, path)] = updated

    for old, new in moves.items():
        Path(new).parent.mkdir(parents=True, exist_ok=True)
        subprocess.check_call(['git', 'mv', old, new])
        print(f'moved {old} -> {new}')
    changed = []
    for path, text in updates.items():
        if Path(path).read_text() != text:
            Path(path).write_text(text)
            changed.append(path)
    files = set(git_files())
    changed += move_key(files)

    changed = sorted(set(changed))
    for path in changed:
        print(f'rewrote {path}')
    prettier = ROOT / 'node_modules/.bin/prettier'
    formattable = [p for p in changed if not p.endswith('.md')]
    if formattable and prettier.exists():
        subprocess.check_call([str(prettier), '--write', '--log-level', 'warn', *formattable])
    if not moves and not changed:
        print('move-testing: nothing to do')


if __name__ == '__main__':
    main()

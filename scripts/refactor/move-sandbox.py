#!/usr/bin/env python3
"""Moves the sandbox network into its own top-level wing (issue 23, step 2) and rewrites every reference.

    python3 scripts/refactor/move-sandbox.py [--dry-run]

1. `git mv` each file of MOVES whose source still exists (a move already done is skipped).
2. Rewrites every import specifier in the repo by the file it resolves to, not by its text: a specifier is resolved
   from the folder its file was in before this run (a file this run moved: the folder it came from), else from the
   other one; a target that was moved is replaced by its new path. So a second run changes nothing, and a run after
   other moves (e.g. test support moved to testing/, its imports rewritten) still finds its targets.
3. Rewrites path mentions with an extension (`lib/sandbox/x-api.ts`, `./db/sandbox-schema.ts`, `../lib/...` links)
   in comments, docs and configs.
Only files tracked by git (or moved by this run) are read; node_modules, .next and migrations are never touched.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))

_D = 'sandbox/dialects'
MOVES = {
    # X
    'lib/sandbox/x-api.ts': f'{_D}/x/api.ts',
    'lib/sandbox/x-text.ts': f'{_D}/x/text.ts',
    'lib/sandbox/x-read-back.test.ts': f'{_D}/x/read-back.test.ts',
    # Mastodon
    'lib/sandbox/mastodon-api.ts': f'{_D}/mastodon/api.ts',
    'lib/sandbox/mastodon-content.ts': f'{_D}/mastodon/content.ts',
    'lib/sandbox/mastodon-json.ts': f'{_D}/mastodon/json.ts',
    'lib/sandbox/mastodon-markdown.test.ts': f'{_D}/mastodon/markdown.test.ts',
    # Bluesky
    'lib/sandbox/bluesky-api.ts': f'{_D}/bluesky/api.ts',
    'lib/sandbox/bluesky-api.test.ts': f'{_D}/bluesky/api.test.ts',
    'lib/sandbox/bluesky-create-account.ts': f'{_D}/bluesky/create-account.ts',
    'lib/sandbox/bluesky-records.ts': f'{_D}/bluesky/records.ts',
    'lib/sandbox/bluesky-session.ts': f'{_D}/bluesky/session.ts',
    # LinkedIn
    'lib/sandbox/linkedin-api.ts': f'{_D}/linkedin/api.ts',
    'lib/sandbox/linkedin-api.test.ts': f'{_D}/linkedin/api.test.ts',
    'lib/sandbox/linkedin-errors.ts': f'{_D}/linkedin/errors.ts',
    'lib/sandbox/linkedin-identity.ts': f'{_D}/linkedin/identity.ts',
    'lib/sandbox/linkedin-little.ts': f'{_D}/linkedin/little.ts',
    'lib/sandbox/linkedin-members.ts': f'{_D}/linkedin/members.ts',
    'lib/sandbox/linkedin-posts.ts': f'{_D}/linkedin/posts.ts',
    # Threads
    'lib/sandbox/threads-api.ts': f'{_D}/threads/api.ts',
    'lib/sandbox/threads-api.test.ts': f'{_D}/threads/api.test.ts',
    'lib/sandbox/threads-containers.ts': f'{_D}/threads/containers.ts',
    'lib/sandbox/threads-errors.ts': f'{_D}/threads/errors.ts',
    'lib/sandbox/threads-reads.ts': f'{_D}/threads/reads.ts',
    # Storage: the model and its two stores
    'lib/sandbox/types.ts': 'sandbox/store/types.ts',
    'lib/sandbox/memory-store.ts': 'sandbox/store/memory-store.ts',
    'lib/sandbox/memory-store.test.ts': 'sandbox/store/memory-store.test.ts',
    'lib/sandbox/pg-store.ts': 'sandbox/store/pg-store.ts',
    'lib/sandbox/memory-oauth-store.ts': 'sandbox/store/memory-oauth-store.ts',
    'lib/sandbox/pg-oauth-store.ts': 'sandbox/store/pg-oauth-store.ts',
    'lib/sandbox/post-ids.ts': 'sandbox/store/post-ids.ts',
    # OAuth server and identities
    'lib/sandbox/oauth.ts': 'sandbox/oauth/oauth.ts',
    'lib/sandbox/oauth.test.ts': 'sandbox/oauth/oauth.test.ts',
    'lib/sandbox/oauth-consent.ts': 'sandbox/oauth/consent.ts',
    'lib/sandbox/tokens.ts': 'sandbox/oauth/tokens.ts',
    # HTTP: the one Request → Response router, its node server, media, the control API
    'lib/sandbox/router.ts': 'sandbox/http/router.ts',
    'lib/sandbox/request.ts': 'sandbox/http/request.ts',
    'lib/sandbox/node-server.ts': 'sandbox/http/node-server.ts',
    'lib/sandbox/media.ts': 'sandbox/http/media.ts',
    'lib/sandbox/media-api.test.ts': 'sandbox/http/media.test.ts',
    'lib/sandbox/fetch-guard.test.ts': 'sandbox/http/fetch-guard.test.ts',
    'lib/sandbox/reads-and-deletes.test.ts': 'sandbox/http/reads-and-deletes.test.ts',
    'lib/sandbox/control.ts': 'sandbox/http/control.ts',
    # Behaviour: profiles (how a real server treats a resend) and faults
    'lib/sandbox/profiles.ts': 'sandbox/behaviour/profiles.ts',
    'lib/sandbox/profiles.test.ts': 'sandbox/behaviour/profiles.test.ts',
    'lib/sandbox/faults.ts': 'sandbox/behaviour/faults.ts',
    'lib/sandbox/new-faults.test.ts': 'sandbox/behaviour/faults.test.ts',
    # The Sandbox page's labels stay with the product glue
    'lib/sandbox/fault-labels.ts': 'lib/sandbox/labels.ts',
    # Its own database: schema and queries
    'db/sandbox-schema.ts': 'sandbox/db/schema.ts',
    'db/queries/sandbox.ts': 'sandbox/db/queries/store.ts',
    'db/queries/sandbox-oauth.ts': 'sandbox/db/queries/oauth.ts',
    'db/queries/sandbox-media.ts': 'sandbox/db/queries/media.ts',
    'db/queries/sandbox-threads.ts': 'sandbox/db/queries/threads.ts',
}
REVERSE = {new: old for old, new in MOVES.items()}

SCAN_DIRS = ['app', 'components', 'db', 'lib', 'scripts', 'e2e', 'sandbox', 'testing', 'docs', 'types']
SCAN_ROOT_FILES = re.compile(r'^[^/]+\.(ts|mts|mjs|js|json|md)$|^Dockerfile$|^compose\.yaml$')
CODE_EXT = ('.ts', '.tsx', '.mts', '.mjs', '.js', '.cjs')
TEXT_EXT = CODE_EXT + ('.md', '.json', '.sh', '.yaml', '.yml', '.css')
SKIP = re.compile(r'(^|/)(node_modules|\.next[^/]*|\.build|\.data|db/migrations)(/|$)')
RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx']

IMPORT = re.compile(
    r"""(?P<head>\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bexport\s+\*\s+from\s+|\bvi\.(?:mock|doMock|importActual)\(\s*|\brequire\(\s*)"""
    r"""(?P<q>['"])(?P<spec>(?:@/|\.\.?/)[^'"\n]*)(?P=q)"""
)


def sh(*args):
    return subprocess.run(args, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def exists(rel):
    return os.path.isfile(os.path.join(ROOT, rel))


def do_moves(dry):
    moved = []
    for old, new in MOVES.items():
        if exists(old) and not exists(new):
            print(f'git mv {old} {new}')
            if not dry:
                os.makedirs(os.path.dirname(os.path.join(ROOT, new)), exist_ok=True)
                sh('git', 'mv', old, new)
            moved.append(new)
        elif exists(old) and exists(new):
            sys.exit(f'both {old} and {new} exist: resolve by hand')
    return moved


def tracked_files():
    out = sh('git', 'ls-files', '--cached', '--others', '--exclude-standard')
    files = []
    for rel in out.splitlines():
        if SKIP.search(rel) or not exists(rel):
            continue
        top = rel.split('/', 1)[0]
        if (top in SCAN_DIRS and rel.endswith(TEXT_EXT)) or SCAN_ROOT_FILES.match(rel):
            files.append(rel)
    return files


def norm(path):
    return os.path.normpath(path).replace(os.sep, '/')


def candidates(base_dir, spec):
    stem = spec[2:] if spec.startswith('@/') else norm(os.path.join(base_dir, spec))
    return [norm(stem + s) for s in RESOLVE_SUFFIXES]


def resolve(base_dir, spec):
    """The file a specifier names, as it is now: an existing file, or a moved file's new path."""
    for c in candidates(base_dir, spec):
        if c.startswith('../'):
            return None
        if c in MOVES and not exists(c):
            return MOVES[c]
        if exists(c):
            return c
    return None


def schema_files():
    """Files drizzle-kit loads itself: they keep relative specifiers (its loader has no `@/` alias)."""
    try:
        text = open(os.path.join(ROOT, 'drizzle.config.ts')).read()
    except OSError:
        return set()
    listed = {norm(m) for m in re.findall(r"'\./([^']+\.ts)'", text)}
    return {MOVES.get(p, p) for p in listed}


def spec_for(importer, target, old_spec, relative_only):
    """The specifier to write: relative when the target sits in the importer's folder (or below) or drizzle-kit
    loads the importer, else `@/`; the extension kept only if the old specifier had one."""
    keep_ext = re.search(r'\.(mjs|js|mts|cjs)$', old_spec) is not None
    path = target
    if not keep_ext:
        path = re.sub(r'(/index)?\.(ts|tsx|mts)$', '', path)
    importer_dir = os.path.dirname(importer)
    rel = norm(os.path.relpath(path, importer_dir or '.'))
    if relative_only or (old_spec.startswith('.') and not rel.startswith('../')):
        return rel if rel.startswith('.') else './' + rel
    return '@/' + path


def rewrite_imports(rel, text, relative_only, fresh):
    here = os.path.dirname(rel)
    origin = os.path.dirname(REVERSE.get(rel, rel))
    # A file moved by this run still has the relative specifiers of the folder it came from; one moved earlier
    # had them rewritten then (the folder it came from may hold a same-named file: `../schema`).
    first, then = (origin, here) if rel in fresh else (here, origin)

    def replace(m):
        spec = m.group('spec')
        target = resolve(first, spec)
        if target is None and first != then and not spec.startswith('@/'):
            target = resolve(then, spec)
        if target is None:
            return m.group(0)
        # Already names the target from here: leave the text as it is.
        now = next((c for c in candidates(here, spec) if exists(c)), None)
        if now == target and not (relative_only and spec.startswith('@/')):
            return m.group(0)
        new_spec = spec_for(rel, target, spec, relative_only)
        if new_spec == spec:
            return m.group(0)
        return f"{m.group('head')}{m.group('q')}{new_spec}{m.group('q')}"

    return IMPORT.sub(replace, text)


def path_mention(old):
    # `lib/sandbox/x-api.ts`, `./db/sandbox-schema.ts`, `../lib/sandbox/x-api.ts`; not `foo/lib/...`, not `x-api.tsx`.
    return re.compile(r'(?<![\w@/.-])(?P<pre>(?:\.\.?/)*)' + re.escape(old) + r'(?![\w-])')


MENTIONS = [(path_mention(old), new) for old, new in MOVES.items()]


def rewrite_mentions(text):
    for pattern, new in MENTIONS:
        text = pattern.sub(lambda m: m.group('pre') + new, text)
    return text


def main():
    dry = '--dry-run' in sys.argv
    moved = do_moves(dry)
    schemas = schema_files()
    changed = 0
    for rel in tracked_files():
        path = os.path.join(ROOT, rel)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        new = text
        if rel.endswith(CODE_EXT):
            new = rewrite_imports(rel, new, relative_only=rel in schemas, fresh=set(moved))
        new = rewrite_mentions(new)
        if new != text:
            changed += 1
            print(f'rewrote {rel}')
            if not dry:
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(new)
    print(f'{len(moved)} moved, {changed} files rewritten{" (dry run)" if dry else ""}.')


if __name__ == '__main__':
    main()

#!/usr/bin/env node
// The test files CI runs a second time on the system Postgres (DATABASE_URL): every file under db/ (constraints,
// tenancy, queries), every file with a test named after an invariant of docs/architecture.md#invariants (I1–I6),
// and every file with a test about a race (parallel, concurrent, at once, racing): the atomic statements. The whole suite runs once already on the embedded Postgres (`npm test`); this pass
// proves the same guards on another Postgres (≥ 15) without paying for the whole suite twice.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TITLE = String.raw`\b(?:describe|it|test)(?:\.(?:each|concurrent|sequential)\b[^(]*\([^)]*\))?\(\s*['"\x60][^'"\x60]*`;
const TITLE_NAMING_AN_INVARIANT = new RegExp(`${TITLE}\\bI[1-6]\\b`);
const TITLE_ABOUT_A_RACE = new RegExp(
  `${TITLE}(?:parallel|concurrent|at once|at the same (?:time|moment)|racing|race)`,
  'i',
);

const tracked = execFileSync('git', ['ls-files', '*.test.ts'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const chosen = tracked.filter((file) => {
  if (file.startsWith('db/')) return true;
  const text = readFileSync(file, 'utf8');
  return TITLE_NAMING_AN_INVARIANT.test(text) || TITLE_ABOUT_A_RACE.test(text);
});
if (chosen.length === 0) {
  console.error('invariant-test-files: no test file found; refusing to run an empty pass');
  process.exit(1);
}
console.log(chosen.join('\n'));

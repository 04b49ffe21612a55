#!/usr/bin/env node
// What CI runs a second time on the system Postgres (DATABASE_URL), the guards on another Postgres (≥ 15) without
// paying for the whole suite twice (it runs once already, on the embedded Postgres: `npm test`):
//   --db       every test file under db/ (constraints, tenancy, queries), run whole;
//   --named    every other file with a test named after an invariant of docs/architecture.md#invariants (I1–I6) or
//              about a race (parallel, concurrent, at once, racing): the atomic statements;
//   --pattern  the name pattern (vitest -t) that runs only those tests of the --named files.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const INVARIANT = String.raw`\bI[1-6]\b`;
const RACE_WORDS = ['parallel', 'concurrent', 'at once', 'at the same (?:time|moment)', 'racing', 'race'];
const RACE = RACE_WORDS.join('|');
const TITLE = String.raw`\b(?:describe|it|test)(?:\.(?:each|concurrent|sequential)\b[^(]*\([^)]*\))?\(\s*['"\x60][^'"\x60]*`;
const TITLE_NAMING_AN_INVARIANT = new RegExp(`${TITLE}${INVARIANT}`);
const TITLE_ABOUT_A_RACE = new RegExp(`${TITLE}(?:${RACE})`, 'i');

const mode = process.argv[2];
if (mode === '--pattern') {
  // Vitest compiles -t without flags: the race words match at either case of their first letter.
  const race = RACE_WORDS.map((word) => `[${word[0].toUpperCase()}${word[0]}]${word.slice(1)}`).join('|');
  console.log(`${INVARIANT}|${race}`);
  process.exit(0);
}
if (mode !== '--db' && mode !== '--named') {
  console.error('usage: invariant-test-files.mjs --db | --named | --pattern');
  process.exit(2);
}
const tracked = execFileSync('git', ['ls-files', '*.test.ts'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const chosen = tracked.filter((file) => {
  if (file.startsWith('db/')) return mode === '--db';
  if (mode === '--db') return false;
  const text = readFileSync(file, 'utf8');
  return TITLE_NAMING_AN_INVARIANT.test(text) || TITLE_ABOUT_A_RACE.test(text);
});
if (chosen.length === 0) {
  console.error(`invariant-test-files ${mode}: no test file found; refusing to run an empty pass`);
  process.exit(1);
}
console.log(chosen.join('\n'));

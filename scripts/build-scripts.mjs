// `npm run build`, after `next build`: compiles the scripts production runs (npm start, worker, migrations, API
// keys, seeding, setup) to plain JavaScript in .build/scripts, so they run after `npm prune --omit=dev` without tsx.
// Our own code is bundled; packages stay imports, and each must be a runtime dependency (checked here).
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const SCRIPTS = ['with-db', 'worker', 'db-migrate', 'db-seed', 'apikey', 'setup'];
const OUT_DIR = '.build/scripts';

rmSync(OUT_DIR, { recursive: true, force: true });
const result = await build({
  entryPoints: SCRIPTS.map((name) => `scripts/${name}.mts`),
  outdir: OUT_DIR,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  metafile: true,
  logLevel: 'warning',
});

// Test support never ships: a production script that reached testing/ would carry its public keys and fixtures.
const testSupport = Object.keys(result.metafile.inputs).filter((input) => input.startsWith('testing/'));
if (testSupport.length > 0) {
  console.error(`scripts import test support (testing/): ${testSupport.join(', ')}`);
  process.exit(1);
}

// A dev dependency imported here would work until the first pruned start: fail the build instead.
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const missing = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path: specifier, external } of output.imports) {
    if (!external || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    if (!(packageOf(specifier) in dependencies)) missing.add(packageOf(specifier));
  }
}
if (missing.size > 0) {
  console.error(`scripts import packages that are not runtime dependencies: ${[...missing].join(', ')}`);
  process.exit(1);
}
console.log(`Compiled ${SCRIPTS.length} scripts to ${OUT_DIR}.`);

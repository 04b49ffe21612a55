// node scripts/run-script.mjs <name> [args…]: runs scripts/<name>.mts. With NODE_ENV=production, the JavaScript
// `npm run build` compiled into .build/scripts (no dev tool needed: it runs after `npm prune --omit=dev`, which
// keeps tsx only as an optional peer of a runtime dependency); otherwise the TypeScript source through tsx when tsx
// is installed (development: always the current code), else the compiled JavaScript.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name)) {
  console.error('usage: node scripts/run-script.mjs <script name> [args…]');
  process.exit(2);
}

function tsxInstalled() {
  try {
    createRequire(path.resolve('package.json')).resolve('tsx');
    return true;
  } catch {
    return false;
  }
}

const compiled = path.resolve('.build/scripts', `${name}.mjs`);
const production = process.env.NODE_ENV === 'production';
if (!production && tsxInstalled()) {
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.mts`, ...args], { stdio: 'inherit' });
  // The child handles the signal (with-db stops its server and database, the worker finishes its pass).
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else if (existsSync(compiled)) {
  process.argv.splice(2, 1); // the script reads its own arguments from argv[2] on
  await import(pathToFileURL(compiled).href);
} else {
  console.error(`${compiled} is missing${production ? '' : ' and tsx is not installed'}: run \`npm run build\` first.`);
  process.exit(1);
}

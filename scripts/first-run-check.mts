// npm run check:first-run [-- --dev | --production] — what a newcomer does, checked end to end, both paths by default:
//   development: cp .env.example .env && npm run dev → the dashboard answers → a post to a seeded sandbox account
//                goes out through the public API (key from `npm run apikey`)
//   production:  after `npm run build`: npm start on an empty database with fresh secrets → setup with the token
//                from the server log → sign in → connect a sandbox account (OAuth consent) → an API key from
//                Settings → a post through the public API goes out, exactly one copy on the sandbox
// Each step is printed with its time; a failure names its phase and step and exits 1. It stops what it started (by
// process group), removes what it wrote (the .env, a .data it created, the production path's temporary data
// directory) and drops the database it made. The production path's database: a new one beside DATABASE_URL when
// that is set, else the embedded Postgres npm start brings up. Servers listen on PORT (default 3000) when free,
// else on any free port.
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { checkDevelopmentPath } from './lib/first-run-dev';
import { checkProductionPath, describeBuild, productionPrerequisites } from './lib/first-run-production';
import { cleanUp, Phase, StepFailure } from './lib/first-run-steps';

const { values } = parseArgs({ options: { dev: { type: 'boolean' }, production: { type: 'boolean' } } });
const both = !values.dev && !values.production;
const phases = [
  ...(values.dev || both ? [{ name: 'development', check: checkDevelopmentPath }] : []),
  ...(values.production || both ? [{ name: 'production', check: checkProductionPath }] : []),
];

// Next.js reads a .env in development and production alike: the check runs without one, and writes its own.
if (existsSync('.env')) {
  console.error('first-run check: a .env exists already; not overwriting it (move it away to run the check)');
  process.exit(2);
}
if (phases.some((p) => p.name === 'production')) {
  const missing = productionPrerequisites();
  if (missing) {
    console.error(
      `first-run check: ${missing}. \`npm run check:first-run -- --dev\` checks the development path alone.`,
    );
    process.exit(1);
  }
  console.log(`first-run check: the production path runs ${describeBuild()}`);
}

// Ctrl-C, or CI's timeout: stop the servers and remove what was written before going.
let interrupted: NodeJS.Signals | null = null;
let failed = false;
const exitCode = () => (interrupted ? 128 + constants.signals[interrupted] : failed ? 1 : 0);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = signal;
    console.error(`first-run check: ${signal}; stopping what it started`);
    void cleanUp().finally(() => process.exit(exitCode()));
  });
}

const preferredPort = Number(process.env.PORT) || 3000;
const results: string[] = [];
for (const { name, check } of phases) {
  const phase = new Phase(name);
  try {
    await check(phase, preferredPort);
    results.push(`${name} passed in ${phase.elapsed()}`);
  } catch (error) {
    if (interrupted) break; // its servers were stopped under it: no failure to report
    failed = true;
    const where = error instanceof StepFailure ? `at "${error.step}"` : '';
    const context = await Promise.all(
      phase.context.map((describe) =>
        Promise.resolve()
          .then(describe)
          .catch((e: Error) => `(${e.message})`),
      ),
    );
    console.error([`first-run check FAILED [${name}] ${where}: ${(error as Error).message}`, ...context].join('\n'));
    results.push(`${name} FAILED ${where}`);
  } finally {
    await cleanUp();
  }
}
if (!interrupted) console.log(`first-run check: ${results.join('; ')}`);
process.exit(exitCode());

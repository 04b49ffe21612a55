// npm run simulate [-- --runs 2000]
// The interleaving simulation (testing/simulation) with more runs than `npm test` gives it: the general property
// runs N times, the slow-platform one 60 % of that, in two processes. Exits non-zero on any violation.
import { parseArgs } from 'node:util';
import { startVitest } from 'vitest/node';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2000' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('--runs must be a positive whole number');
  process.exit(2);
}

const started = Date.now();
const vitest = await startVitest('test', ['testing/simulation/'], {
  run: true,
  watch: false,
  provide: { simulationRuns: runs },
});
const failed = vitest.state.getCountOfFailedTests();
await vitest.close();
const seconds = (Date.now() - started) / 1000;
const total = runs + Math.ceil(runs * 0.6);
console.log(
  `simulate: ${total} runs (${runs} general, ${Math.ceil(runs * 0.6)} slow-platform) in ${seconds.toFixed(0)} s${failed ? `, ${failed} failed` : ''}`,
);
process.exit(failed > 0 || vitest.state.getUnhandledErrors().length > 0 ? 1 : 0);

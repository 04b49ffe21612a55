import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import drizzle from 'eslint-plugin-drizzle';

/*
 * The house's fences (docs/architecture.md#fences): who may import whom. ESLint replaces a rule's options when a
 * later entry matches the same file instead of adding to them, so each entry below lists every pattern its files
 * obey, from the general to the specific. Tests beside the code may drive any layer; production code may not.
 */
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];
// Test support, wherever it still lives (moving to testing/).
const TEST_SUPPORT = ['testing/**', '**/testing/**', '**/testing.ts'];

const LIB = {
  group: ['@/lib/*', '../lib/*', '../../lib/*', '../../../lib/*'],
  message: 'db/ is a leaf: it imports nothing from lib/ (move the shared piece into db/, lib re-exports it).',
};
const APP = { group: ['@/app/*'], message: 'app/ is the top: nothing below it imports a page, an action or a route.' };
const COMPONENTS = {
  group: ['@/components/*'],
  message: 'Only app/ and components/ import components: lib/ and db/ are not UI.',
};
const SANDBOX = {
  regex: '^@/sandbox(/|$)',
  message: 'Only lib/sandbox/ (the product glue), app/api/sandbox/, tests and scripts import the sandbox.',
};

// The sandbox/ wing is a look-alike of the networks: it may use only these production modules, so it cannot lean
// on the code it judges (the clients' counters, the publisher…).
const SANDBOX_MAY_IMPORT = [
  '@/db/client', // the Database type its stores and queries take
  '@/db/schema', // the provider enum its platform enum is
  '@/lib/providers/types',
  '@/lib/providers/catalog', // names, labels and sandbox paths of the networks
  '@/lib/providers/base-url', // this app's own origin (media fetched back from it)
  '@/lib/http/', // problem responses, the request origin
  '@/lib/logging/',
  '@/lib/net/', // the outbound guard, for the images Threads fetches
  '@/lib/media/sniff',
];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const sandboxAllowed = SANDBOX_MAY_IMPORT.map((m) => escape(m.slice('@/'.length)) + (m.endsWith('/') ? '' : '$')).join(
  '|',
);
const OUTSIDE_THE_SANDBOX_ALLOW_LIST = {
  regex: `^@/(?!sandbox/|${sandboxAllowed})`,
  message: 'The sandbox imports only the production modules of SANDBOX_MAY_IMPORT (eslint.config.mjs).',
};
// The product reaches the sandbox only through its glue (lib/sandbox/: serve, connect, the Sandbox page) and its
// route; tests, test support, scripts and the interleaving simulation may use it directly.
const SANDBOX_IMPORTERS = [
  'sandbox/**',
  'lib/sandbox/**',
  'app/api/sandbox/**',
  ...TESTS,
  ...TEST_SUPPORT,
  'scripts/**',
  'e2e/**',
  'testing/simulation/**',
];

const FENCES = [
  { files: ['**/*.{ts,tsx,mts,mjs,js}'], ignores: SANDBOX_IMPORTERS, patterns: [SANDBOX] },
  {
    files: ['db/**/*.ts'],
    ignores: [...TESTS, ...TEST_SUPPORT],
    patterns: [SANDBOX, LIB, APP, COMPONENTS],
  },
  { files: ['lib/**/*.{ts,tsx}'], ignores: [...SANDBOX_IMPORTERS], patterns: [SANDBOX, APP, COMPONENTS] },
  {
    files: ['lib/sandbox/**/*.{ts,tsx}', 'testing/simulation/**/*.ts'],
    ignores: [...TESTS, ...TEST_SUPPORT],
    patterns: [APP, COMPONENTS],
  },
  { files: ['components/**/*.{ts,tsx}'], ignores: TESTS, patterns: [SANDBOX, APP] },
  { files: ['sandbox/**/*.{ts,tsx,mts}'], ignores: TESTS, patterns: [OUTSIDE_THE_SANDBOX_ALLOW_LIST] },
];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    plugins: { drizzle },
    rules: {
      // A delete/update without where would hit every tenant's rows.
      'drizzle/enforce-delete-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
      'drizzle/enforce-update-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
    },
  },
  ...FENCES.map(({ files, ignores, patterns }) => ({
    files,
    ignores,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  })),
  {
    // Test support stays out of what ships: testing/ may import anything, production code may not import testing/
    // (its keys are public and its fixtures write to the database). Tests beside the code may (testing/fences.test.ts).
    // A rule of its own (the typescript-eslint twin of no-restricted-imports), so it adds to the FENCES above
    // instead of replacing them for the same files.
    files: [
      ...['app/**', 'components/**', 'lib/**', 'db/**', 'sandbox/**', 'proxy.ts', 'instrumentation.ts'],
      // The scripts production runs (scripts/build-scripts.mjs compiles them and checks the same).
      ...['scripts/{with-db,worker,db-migrate,db-seed,apikey,setup}.mts', 'scripts/lib/database.ts', 'scripts/seed/**'],
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|(\\.\\./)+)testing(/|$)',
              message: 'Production code must not import test support (testing/); only tests and scripts may.',
            },
          ],
        },
      ],
    },
  },
  {
    ignores: [
      '.next*/**',
      '.build/**',
      '.data/**',
      'node_modules/**',
      'db/migrations/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
    ],
  },
];

export default config;

import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import drizzle from 'eslint-plugin-drizzle';

/**
 * The house's fences (docs/architecture.md#fences): who may import whom. One entry per folder, because a later
 * `no-restricted-imports` replaces an earlier one for the same file instead of adding to it. Tests beside the code
 * may drive any layer; production code may not.
 */
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];
const LIB = {
  group: ['@/lib/*', '../lib/*', '../../lib/*', '../../../lib/*'],
  message: 'db/ is a leaf: it imports nothing from lib/ (move the shared piece into db/, lib re-exports it).',
};
const APP = { group: ['@/app/*'], message: 'app/ is the top: nothing below it imports a page, an action or a route.' };
const COMPONENTS = {
  group: ['@/components/*'],
  message: 'Only app/ and components/ import components: lib/ and db/ are not UI.',
};
const FENCES = [
  // The sandbox's schema and the API-key test fixture leave db/ with their own folders (sandbox/, testing/).
  {
    files: ['db/**/*.ts'],
    ignores: [...TESTS, 'db/sandbox-schema.ts', 'db/testing/**'],
    patterns: [LIB, APP, COMPONENTS],
  },
  { files: ['lib/**/*.ts', 'lib/**/*.tsx'], ignores: TESTS, patterns: [APP, COMPONENTS] },
  { files: ['components/**/*.ts', 'components/**/*.tsx'], ignores: TESTS, patterns: [APP] },
];

const config = [
  ...nextVitals,
  ...nextTs,
  ...FENCES.map(({ files, ignores, patterns }) => ({
    files,
    ignores,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  })),
  {
    plugins: { drizzle },
    rules: {
      // A delete/update without where would hit every tenant's rows.
      'drizzle/enforce-delete-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
      'drizzle/enforce-update-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
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

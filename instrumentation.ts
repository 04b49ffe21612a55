export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // First, so sign-in limits see each request's real peer address (lib/auth/peer-address.ts).
    const { recordPeerAddresses } = await import('./lib/auth/peer-address');
    recordPeerAddresses();
    const { bootServer } = await import('./db/boot');
    await bootServer();
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import http, { type IncomingMessage } from 'node:http';

export type Peer = { address: string | undefined; forwardedFor: string | undefined; userAgent?: string | undefined };

// One store per process: instrumentation and route handlers are separate bundles, each with its own module copy.
const KEY = Symbol.for('semel.peer-address');
const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<Peer> | undefined>;
const storage = (holder[KEY] ??= new AsyncLocalStorage<Peer>());

/**
 * Next 16 gives route handlers no socket address, and keeps a client-sent X-Forwarded-For as the only
 * address. So the HTTP server's `request` event records the socket's peer (and the header as received)
 * in the request's async context, where sign-in reads it. Installed once by instrumentation.ts.
 */
export function recordPeerAddresses(): void {
  const proto = http.Server.prototype as unknown as Record<symbol, unknown> & {
    emit: (event: string, ...args: unknown[]) => boolean;
  };
  if (proto[KEY]) return;
  proto[KEY] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const req = args[0] as IncomingMessage;
    const header = req.headers['x-forwarded-for'];
    const peer = {
      address: req.socket?.remoteAddress,
      forwardedFor: Array.isArray(header) ? header.join(',') : header,
      // Shown on Settings → Security beside the session a sign-in creates.
      userAgent: req.headers['user-agent'],
    };
    return storage.run(peer, () => emit.call(this, event, ...args));
  };
}

/** The current request's peer, or undefined outside a recorded request (then sign-in uses one shared bucket). */
export function currentPeer(): Peer | undefined {
  return storage.getStore();
}

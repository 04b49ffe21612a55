import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { id: string; timestamp: string; signature: string; body: string; at: number };

/**
 * A real HTTP receiver on a free loopback port for tests: records every request, answers `status` (default 200)
 * after `delayMs`, and counts how many requests were in flight at once.
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  const state = { status: 200, delayMs: 0, inFlight: 0, maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      received.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const status = state.status;
      setTimeout(() => {
        state.inFlight -= 1;
        res
          .writeHead(status, { 'content-type': 'text/plain' })
          .end(status < 300 ? 'ok' : 'receiver is down '.repeat(50));
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    state,
    /** By host name: the guard lets `localhost` through only where OUTBOUND_ALLOWED_HOSTS (or a test's list) names it. */
    url: `http://localhost:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The Standard Webhooks check, written from the specification and independent of the signing code: HMAC-SHA256
 * over `${id}.${timestamp}.${body}` keyed with the base64 bytes after `whsec_`, compared with each `v1,<base64>`.
 */
export function verifyStandardWebhook(
  secret: string,
  message: Pick<Received, 'id' | 'timestamp' | 'signature' | 'body'>,
) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${message.id}.${message.timestamp}.${message.body}`).digest();
  return message.signature.split(' ').some((versioned) => {
    const [version, signature] = versioned.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

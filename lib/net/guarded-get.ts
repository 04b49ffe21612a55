import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { checkOutboundUrl, outboundLookup, type OutboundPolicy } from './outbound-guard';

export type GuardedGetResult =
  | {
      ok: true;
      bytes: Uint8Array;
      contentType: string | null;
      /** 2xx, or 304 to a conditional request (`headers` with If-None-Match / If-Modified-Since): no body then. */
      status: number;
      headers: IncomingMessage['headers'];
    }
  | { ok: false; reason: 'refused' | 'too_large' | 'status' | 'network'; status?: number };

// Sockets to addresses the guard vetted at connect time (DNS rebinding cannot swap one in); the app's own
// trusted origin has a pool of its own, as lib/net/send.ts keeps them.
const guarded = {
  'http:': new http.Agent({ lookup: outboundLookup }),
  'https:': new https.Agent({ lookup: outboundLookup }),
};
const trusted = { 'http:': new http.Agent(), 'https:': new https.Agent() };

/**
 * One GET of a URL someone else named (a media URL given to a sandbox dialect, a feed): through the outbound guard, no
 * redirects, and the body cut off once it passes `maxBytes` — a huge or endless answer never sits in memory.
 */
export function guardedGet(
  rawUrl: string,
  options: { maxBytes: number; timeoutMs?: number; policy?: OutboundPolicy; headers?: Record<string, string> },
): Promise<GuardedGetResult> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return Promise.resolve({ ok: false, reason: 'refused' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve({ ok: false, reason: 'refused' });
  const check = checkOutboundUrl(url, options.policy);
  if (!check.ok) return Promise.resolve({ ok: false, reason: 'refused' });
  const protocol = url.protocol;
  return new Promise((resolve) => {
    let done = false;
    const finish = (result: GuardedGetResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
      req.destroy();
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'network' }), options.timeoutMs ?? 10_000);
    timer.unref();
    const req = (protocol === 'https:' ? https : http).get(
      url,
      { agent: (check.trusted ? trusted : guarded)[protocol], headers: options.headers },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status === 304 && options.headers)
          return finish({ ok: true, bytes: new Uint8Array(), contentType: null, status, headers: res.headers });
        if (status < 200 || status >= 300) return finish({ ok: false, reason: 'status', status });
        if (Number(res.headers['content-length'] ?? 0) > options.maxBytes)
          return finish({ ok: false, reason: 'too_large' });
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          if ((received += chunk.length) > options.maxBytes) return finish({ ok: false, reason: 'too_large' });
          chunks.push(chunk);
        });
        res.on('end', () =>
          finish({
            ok: true,
            bytes: new Uint8Array(Buffer.concat(chunks)),
            contentType: res.headers['content-type'] ?? null,
            status,
            headers: res.headers,
          }),
        );
        res.on('error', () => finish({ ok: false, reason: 'network' }));
        res.on('close', () => {
          if (!res.complete) finish({ ok: false, reason: 'network' });
        });
      },
    );
    // A host that resolves only to refused addresses fails here (OUTBOUND_REFUSED from the lookup).
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, reason: error.code === 'OUTBOUND_REFUSED' ? 'refused' : 'network' }),
    );
  });
}

import { randomBytes } from 'node:crypto';
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import {
  checkOutboundUrl,
  MAX_RESPONSE_BYTES,
  OUTBOUND_REFUSED,
  outboundLookup,
  type OutboundPolicy,
} from '@/lib/net/outbound-guard';
import type { ConnectionFacts, RawOutcome } from '@/lib/providers/types';

export const DEFAULT_TIMEOUT_MS = 10_000;

export type HttpRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** An `application/x-www-form-urlencoded` body instead (OAuth token endpoints); never together with `json`. */
  form?: Record<string, string>;
  /** A raw body instead of JSON (an image upload). */
  bytes?: { data: Uint8Array; contentType: string };
  /** A `multipart/form-data` body (X and Mastodon media uploads): text fields, then files. */
  multipart?: MultipartBody;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Who may be called (lib/net/outbound-guard.ts); absent: public addresses only. */
  outbound?: OutboundPolicy;
};

export type MultipartBody = {
  fields?: Record<string, string>;
  files: { name: string; filename: string; contentType: string; data: Uint8Array }[];
};

/** Quotes a form-data name or filename (RFC 7578 §4.2, as browsers do): no raw quote, CR or LF can end the header. */
const quoted = (value: string) => `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/** Encodes a multipart/form-data body (RFC 7578) under a random boundary; returns the body and its content type. */
export function encodeMultipart(body: MultipartBody, boundary = `----semel${randomBytes(12).toString('hex')}`) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(body.fields ?? {}))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`),
    );
  for (const file of body.files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.name)}; filename=${quoted(file.filename)}\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { data: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The connection pools a request goes through: one keep-alive agent per protocol. */
export type Agents = { readonly 'http:': http.Agent; readonly 'https:': https.Agent };

/** Every option of an outgoing connection, in one place (an outbound guard adds its `lookup` here). */
export type AgentOptions = {
  /** Resolves host names for new connections (default: the system resolver). */
  lookup?: LookupFunction;
  /** Extra trusted certificates (tests with a local TLS server). */
  ca?: string | Buffer;
};

// One keep-alive pool per protocol for the whole process: a publisher makes thousands of calls to a
// handful of hosts. node:http costs about a third of the CPU per call of the global fetch (undici with
// web streams), which the publishing benchmark (npm run bench) showed to be the publisher's largest cost.
// Idle sockets close before the server's Keep-Alive hint runs out, or after 4 s without one (as undici).
export function createAgents(options: AgentOptions = {}): Agents {
  const common = { keepAlive: true, timeout: 4_000, ...(options.lookup ? { lookup: options.lookup } : {}) };
  return {
    'http:': new http.Agent(common),
    'https:': new https.Agent({ ...common, ...(options.ca ? { ca: options.ca } : {}) }),
  };
}

// Platform sockets connect only to addresses the outbound guard vetted; the app's own origin (the sandbox) has its own pool.
const guardedAgents = createAgents({ lookup: outboundLookup });
const trustedAgents = createAgents();

/** Nothing reached a socket: the request never left this process. */
export const NO_SOCKET: ConnectionFacts = Object.freeze({
  socketAssigned: false,
  reused: false,
  tls: false,
  connected: false,
  secured: false,
  bytesWritten: 0,
});

/**
 * Exactly one HTTP request; never retries (a retry of a non-idempotent call is how duplicates happen).
 * Never throws: every failure becomes a RawOutcome for the provider's classifier, carrying what the
 * socket did (ConnectionFacts). The timeout covers the whole call (connect, send, response body);
 * redirects are never followed (a POST must not silently become a GET to another URL).
 */
/** `agents`: a caller's own pools (tests); otherwise the guarded pools, or the trusted ones for the app's own origin. */
export function sendOnce(request: HttpRequest, agents?: Agents): Promise<RawOutcome> {
  if (request.signal?.aborted) {
    return Promise.resolve({
      type: 'error',
      code: 'ABORTED_BEFORE_SEND',
      name: 'AbortError',
      message: 'Canceled before the request was sent',
      timedOut: false,
      connection: NO_SOCKET,
    });
  }
  let url: URL;
  try {
    url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw Object.assign(new TypeError(`Unsupported protocol ${url.protocol}`), { code: 'ERR_INVALID_URL' });
  } catch (error) {
    const err = error as Error;
    return Promise.resolve({
      type: 'error',
      code: errorCode(err),
      name: err.name,
      message: err.message,
      timedOut: false,
      connection: NO_SOCKET,
    });
  }
  const protocol = url.protocol as keyof Agents;
  const guard = checkOutboundUrl(url, request.outbound);
  if (!guard.ok)
    return Promise.resolve({
      type: 'error',
      code: OUTBOUND_REFUSED,
      name: 'OutboundRefused',
      message: guard.reason,
      timedOut: false,
      connection: NO_SOCKET,
    });
  const multipart = request.multipart ? encodeMultipart(request.multipart) : undefined;
  const [body, contentType] = request.bytes
    ? [Buffer.from(request.bytes.data), request.bytes.contentType]
    : multipart
      ? [multipart.data, multipart.contentType]
      : request.form !== undefined
        ? [Buffer.from(new URLSearchParams(request.form).toString()), 'application/x-www-form-urlencoded']
        : request.json !== undefined
          ? [Buffer.from(JSON.stringify(request.json)), 'application/json']
          : [undefined, undefined];
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(body === undefined ? {} : { 'content-type': contentType!, 'content-length': String(body.length) }),
    ...request.headers,
  };

  return new Promise<RawOutcome>((resolve) => {
    let settled = false;
    let timedOut = false;
    let response: IncomingMessage | undefined;
    let req: ClientRequest | undefined;
    const wire = watchWire(protocol === 'https:');
    let abortReason: Error | undefined;
    const settle = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
      resolve(outcome);
    };
    /** A failure before (error) or after (body-error) the status line; an abort reports its reason, as fetch did. */
    const fail = (error: Error) => {
      const err = abortReason ?? error;
      if (response)
        settle({
          type: 'body-error',
          status: response.statusCode ?? 0,
          headers: headersOf(response),
          code: errorCode(err),
          message: err.message,
          timedOut,
        });
      else
        settle({
          type: 'error',
          code: errorCode(err),
          name: err.name,
          message: err.message,
          timedOut,
          connection: wire.facts(),
        });
    };
    const abort = (reason: Error) => {
      if (settled || abortReason) return;
      abortReason = reason;
      req?.destroy(reason);
      fail(reason);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    timer.unref();
    const onCallerAbort = () =>
      abort(
        request.signal!.reason instanceof Error
          ? request.signal!.reason
          : new DOMException('This operation was aborted', 'AbortError'),
      );
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });

    try {
      req = (protocol === 'https:' ? https : http).request(
        url,
        {
          method: request.method,
          headers,
          agent: (agents ?? (guard.trusted ? trustedAgents : guardedAgents))[protocol],
        },
        (res) => {
          response = res;
          const chunks: Buffer[] = [];
          let received = 0;
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            // A platform's answer is small; a huge one would exhaust memory. Destroying the request drops the socket.
            if ((received += chunk.length) > MAX_RESPONSE_BYTES)
              abort(
                Object.assign(new Error(`Response body over ${MAX_RESPONSE_BYTES} bytes`), { code: 'BODY_TOO_LARGE' }),
              );
          });
          res.on('end', () => {
            const bodyText = Buffer.concat(chunks).toString('utf8');
            settle({
              type: 'response',
              status: res.statusCode ?? 0,
              headers: headersOf(res),
              body: parseJson(bodyText),
              bodyText: bodyText.slice(0, 2000),
            });
          });
          res.on('error', fail);
          // The connection closed before the body ended (a reset mid-body): node reports it as `aborted`.
          res.on('close', () => {
            if (!res.complete) fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
          });
        },
      );
    } catch (error) {
      // http.request throws synchronously for a header it refuses: no socket was ever involved.
      fail(error as Error);
      return;
    }
    wire.attach(req);
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Records what the request's socket does. Listeners attach on `socket`, which node emits before it
 * writes the request and before a fresh socket can finish connecting (both happen on a later tick).
 */
function watchWire(tls: boolean) {
  const facts: ConnectionFacts = { ...NO_SOCKET, tls };
  let socket: Socket | undefined;
  let before = 0;
  // Bytes whose write completed: counted once they left the stream's buffer (node counts queued bytes in bytesWritten).
  const passedOn = (s: Socket) => (s.bytesWritten ?? 0) - s.writableLength;
  const sample = () => {
    // Before its handshake a TLS socket holds what it is given: node sends no request byte before the certificate checked out.
    if (!socket || (tls && !facts.secured && !facts.reused)) return;
    facts.bytesWritten = Math.max(facts.bytesWritten, passedOn(socket) - before);
  };
  const onSocket = (req: ClientRequest, s: Socket) => {
    socket = s;
    facts.socketAssigned = true;
    facts.reused = req.reusedSocket;
    before = passedOn(s);
    if (!facts.reused && !s.connecting) {
      // A fresh socket that is already connected here is unexpected: assume the worst (connected and secured).
      facts.connected = true;
      facts.secured = tls;
    }
    // Only a socket that is still connecting will emit these; a reused keep-alive socket never does, and
    // listeners left on it would pile up request after request (MaxListenersExceededWarning).
    if (!s.connecting) return;
    s.once('connect', () => {
      facts.connected = true;
      sample();
    });
    if (tls) {
      s.once('secureConnect', () => {
        facts.secured = true;
        sample();
      });
    }
  };
  return {
    attach: (req: ClientRequest) => {
      req.once('socket', (s: Socket) => onSocket(req, s));
      req.once('finish', sample);
    },
    /** A snapshot; before `attach` (no request was built) it says no socket. */
    facts: () => {
      sample();
      return { ...facts };
    },
  };
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

/** The first string `code` along the cause chain (undici wraps socket errors: TypeError → SocketError). */
export function errorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof code === 'string') return code;
    const inner = errors?.find((e) => typeof (e as { code?: unknown })?.code === 'string') as
      { code: string } | undefined;
    if (inner) return inner.code;
    current = cause;
  }
  return null;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

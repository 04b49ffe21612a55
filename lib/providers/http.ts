import type { RawOutcome } from './types';

export const DEFAULT_TIMEOUT_MS = 10_000;

export type HttpRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/**
 * Exactly one HTTP request; never retries (a retry of a non-idempotent call is how duplicates happen).
 * Never throws: every failure becomes a RawOutcome for the provider's classifier.
 */
export async function sendOnce(request: HttpRequest): Promise<RawOutcome> {
  if (request.signal?.aborted) {
    return { type: 'error', code: 'ABORTED_BEFORE_SEND', name: 'AbortError', message: 'Canceled before the request was sent', timedOut: false, beforeSend: true };
  }
  const timeout = AbortSignal.timeout(request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: { accept: 'application/json', ...(request.json === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      // A POST must not silently become a GET to another URL.
      redirect: 'manual',
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    const err = error as Error;
    return { type: 'error', code: errorCode(err), name: err.name, message: err.message, timedOut: isTimeout(err, timeout), beforeSend: false };
  }
  const headers = Object.fromEntries(response.headers.entries());
  let bodyText: string;
  try {
    bodyText = await response.text();
  } catch (error) {
    const err = error as Error;
    return { type: 'body-error', status: response.status, headers, code: errorCode(err), message: err.message, timedOut: isTimeout(err, timeout) };
  }
  return { type: 'response', status: response.status, headers, body: parseJson(bodyText), bodyText: bodyText.slice(0, 2000) };
}

/** The first string `code` along the cause chain (undici wraps socket errors: TypeError → SocketError). */
export function errorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof code === 'string') return code;
    const inner = errors?.find((e) => typeof (e as { code?: unknown })?.code === 'string') as { code: string } | undefined;
    if (inner) return inner.code;
    current = cause;
  }
  return null;
}

function isTimeout(error: Error, timeout: AbortSignal): boolean {
  return error.name === 'TimeoutError' || (timeout.aborted && error.name === 'AbortError');
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

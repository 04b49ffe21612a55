export const REQUEST_ID_HEADER = 'x-request-id';

// A caller's id is kept when it looks like an id (UUIDs, ULIDs, trace ids); anything else could forge log lines.
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's X-Request-Id (as set by proxy.ts) when well-formed, else a new one. */
export function requestIdOf(headers: Headers): string {
  const given = headers.get(REQUEST_ID_HEADER);
  return given && ACCEPTED.test(given) ? given : crypto.randomUUID();
}

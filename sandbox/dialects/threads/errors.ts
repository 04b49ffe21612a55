import { randomBytes } from 'node:crypto';

// Graph API error bodies as Threads answers them (developers.facebook.com/docs/graph-api/guides/error-handling):
// `{ error: { message, type, code, error_subcode?, is_transient?, fbtrace_id } }`. Graph answers most errors,
// throttling and invalid tokens included, with HTTP 400: a client that waits for a 401 or a 429 is wrong.

export type GraphError = {
  message: string;
  type?: string;
  code: number;
  subcode?: number;
  transient?: boolean;
  userTitle?: string;
  userMessage?: string;
};

export function graphError(status: number, error: GraphError, headers: Record<string, string> = {}): Response {
  const body = {
    error: {
      message: error.message,
      type: error.type ?? 'OAuthException',
      code: error.code,
      ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
      ...(error.transient !== undefined ? { is_transient: error.transient } : {}),
      ...(error.userTitle ? { error_user_title: error.userTitle } : {}),
      ...(error.userMessage ? { error_user_msg: error.userMessage } : {}),
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
  });
}

export const invalidToken = () =>
  graphError(400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });

/** What Graph says of an id that does not exist or is not the caller's (it does not tell which). */
export const unsupportedRequest = (method: 'get' | 'post' | 'delete', id: string) =>
  graphError(400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: 'THApiException',
    code: 100,
    subcode: 33,
  });

export const invalidParameter = (message: string) =>
  graphError(400, { message: `(#100) ${message}`, type: 'THApiException', code: 100 });

/** The race real clients meet on threads_publish: a container not (yet) found or not ready. */
export const mediaNotFound = (id: string) =>
  graphError(400, {
    message: 'The requested resource does not exist',
    code: 24,
    subcode: 4279009,
    transient: false,
    userTitle: 'Media Not Found',
    userMessage: `The media with id ${id} cannot be found.`,
  });

/** Throttling (app or user call count, the publishing quota): code 4, "Application request limit reached". */
export const requestLimitReached = (message = 'Application request limit reached') =>
  graphError(400, { message, code: 4, transient: true });

export const temporarilyUnavailable = (status: number) =>
  graphError(status, {
    message: 'An unexpected error has occurred. Please retry your request later.',
    code: 2,
    transient: true,
  });

export const unknownPath = (path: string) =>
  graphError(400, { message: `Unknown path components: ${path}`, code: 2500 });

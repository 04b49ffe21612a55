import type { HttpRequest } from './http';
import type { RawOutcome } from './types';

/**
 * How a provider client sends one HTTP request: `sendOnce` (lib/providers/http.ts) unless a caller
 * injects another, e.g. the interleaving simulation, which routes calls in-process to the sandbox.
 */
export type ProviderTransport = (request: HttpRequest) => Promise<RawOutcome>;

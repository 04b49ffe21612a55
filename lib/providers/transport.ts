import type { HttpRequest } from '@/lib/net/send';
import type { RawOutcome } from './types';

/**
 * How a provider client sends one HTTP request: `sendOnce` (lib/net/send.ts) unless a caller
 * injects another, e.g. the interleaving simulation, which routes calls in-process to the sandbox.
 */
export type ProviderTransport = (request: HttpRequest) => Promise<RawOutcome>;

import { QueryClient, defaultShouldDehydrateQuery, isServer } from '@tanstack/react-query';
import { cache } from 'react';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Data prefetched on the server is fresh on arrival; no immediate refetch in the browser.
      queries: { staleTime: 30_000 },
      dehydrate: { shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) || q.state.status === 'pending' },
    },
  });
}

let browserClient: QueryClient | undefined;

/** Server: one client per request. Browser: one for the page's lifetime. */
export const getServerQueryClient = cache(makeQueryClient);

export function getBrowserQueryClient() {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}

'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { getBrowserQueryClient } from '@/lib/query/query-client';

// Zod probes for eval (`Function('')`) before compiling fast parsers; the CSP forbids eval, so the probe
// would be reported as a violation. In the browser it parses without compiling.
if (typeof window !== 'undefined') z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={getBrowserQueryClient()}>{children}</QueryClientProvider>;
}

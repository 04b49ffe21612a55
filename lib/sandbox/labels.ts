import type { FaultSettings } from '@/sandbox/store/types';

// Imported by client components (components/sandbox/*): keep this file free of server imports (faults.ts
// pulls in node:crypto through threads-errors.ts).

/** The probability knobs, as the Sandbox page labels them. */
export const FAULT_LABELS = {
  rateLimited: 'Rate limited (429, nothing stored)',
  timeoutBeforeCommit: 'Timeout before commit (nothing stored)',
  timeoutAfterCommit: 'Timeout after commit (stored, no answer)',
  errorAfterCommit: '502 after commit (stored)',
  resetAfterCommit: 'Connection reset after commit (stored)',
  listingUnavailable: 'Listing unavailable (503 on reads)',
} as const satisfies Partial<Record<keyof FaultSettings, string>>;

'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** The viewer's IANA time zone; 'UTC' during server rendering, the browser's zone after hydration. */
export function useTimeZone(): string {
  return useSyncExternalStore(
    subscribe,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => 'UTC',
  );
}

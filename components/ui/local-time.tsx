'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** A timestamp in the viewer's own time zone (the server renders UTC until the browser takes over). */
export function LocalTime({ iso, seconds = false }: { iso: string; seconds?: boolean }) {
  const text = useSyncExternalStore(
    subscribe,
    () =>
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        ...(seconds ? { second: '2-digit' as const } : {}),
        timeZoneName: 'short',
      }).format(new Date(iso)),
    () =>
      new Date(iso)
        .toISOString()
        .replace('T', ' ')
        .slice(0, seconds ? 19 : 16) + ' UTC',
  );
  return <time dateTime={iso}>{text}</time>;
}

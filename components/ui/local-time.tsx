'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** A timestamp in the viewer's own time zone (the server renders UTC until the browser takes over). */
export function LocalTime({ iso }: { iso: string }) {
  const text = useSyncExternalStore(
    subscribe,
    () => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZoneName: 'short' }).format(new Date(iso)),
    () => new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
  );
  return <time dateTime={iso}>{text}</time>;
}

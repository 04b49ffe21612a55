'use client';

import { useSyncExternalStore } from 'react';
import { zonedParts } from '@/lib/calendar/grid';

const never = () => () => {};
const everyMinute = (notify: () => void) => {
  const timer = setInterval(notify, 60_000);
  return () => clearInterval(timer);
};
const currentMinute = () => Math.floor(Date.now() / 60_000) * 60_000;

/**
 * The viewer's zone, locale, today and the current minute. The server cannot know the zone: it and the
 * hydration pass render UTC in en-US with `hydrated: false`, and the browser switches to its own right after
 * (no hydration mismatch). What only makes sense in the viewer's zone waits for `hydrated`.
 */
export function useViewer() {
  const hydrated = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  const timeZone = useSyncExternalStore(
    never,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => 'UTC',
  );
  const locale = useSyncExternalStore(
    never,
    () => Intl.DateTimeFormat().resolvedOptions().locale,
    () => 'en-US',
  );
  const now = useSyncExternalStore(everyMinute, currentMinute, currentMinute);
  return { hydrated, timeZone, locale, now, today: zonedParts(new Date(now), timeZone).date };
}

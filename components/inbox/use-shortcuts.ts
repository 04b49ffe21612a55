'use client';

import { useSyncExternalStore } from 'react';

// The inbox's single-key shortcuts (j, k, r, e) can be turned off (WCAG 2.1.4 Character Key Shortcuts): the choice is
// kept in the browser, for every inbox page it opens.

const KEY = 'semel.inbox.shortcuts';
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function useShortcuts(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(KEY) !== 'off',
    () => true,
  );
  const set = (value: boolean) => {
    window.localStorage.setItem(KEY, value ? 'on' : 'off');
    for (const listener of listeners) listener();
  };
  return [on, set];
}

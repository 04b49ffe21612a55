'use client';

import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A form's draft and its idempotency key in sessionStorage (the composer, a client's request form): the key is
 * minted when the form first loads, and a reload, a back-button return or a retry after a network error
 * resubmits with the same key. A new key only comes from `startNew()`, after the success is on screen.
 */
export function useSessionDraft<T extends { key: string }>(storageKey: string, empty: () => T) {
  const [draft, setDraft] = useState<T | null>(null);
  const makeEmpty = useRef(empty);

  useEffect(() => {
    const stored = sessionStorage.getItem(storageKey);
    let initial: T;
    try {
      initial = stored ? { ...makeEmpty.current(), ...(JSON.parse(stored) as Partial<T>) } : makeEmpty.current();
    } catch {
      initial = makeEmpty.current();
    }
    sessionStorage.setItem(storageKey, JSON.stringify(initial));
    setDraft(initial);
  }, [storageKey]);

  const update = useCallback(
    (change: Partial<Omit<T, 'key'>>) => {
      setDraft((current) => {
        if (!current) return current;
        const next = { ...current, ...change };
        sessionStorage.setItem(storageKey, JSON.stringify(next));
        return next;
      });
    },
    [storageKey],
  );

  const startNew = useCallback(() => {
    const next = makeEmpty.current();
    sessionStorage.setItem(storageKey, JSON.stringify(next));
    setDraft(next);
  }, [storageKey]);

  return { draft, update, startNew };
}

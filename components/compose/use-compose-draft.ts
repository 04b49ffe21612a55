'use client';

import { useCallback, useEffect, useState } from 'react';
import { newThreadPart, type ThreadPart } from './thread-parts';

export type ComposeDraft = {
  key: string;
  text: string;
  kind: 'post' | 'reply' | 'dm' | 'thread';
  /** A thread's parts (kind `thread`); kept with the draft like the text. */
  parts: ThreadPart[];
  inReplyTo: string;
  recipient: string;
  accountIds: string[];
  /** Own texts by account id (the composer's account tabs); an account without one gets `text`. */
  variants: Record<string, string>;
  when: 'now' | 'later' | 'queue';
  localDateTime: string;
  /** Images already uploaded (POST /api/app/media), in order; a reload keeps them with the draft. */
  media: DraftMedia[];
};

export type DraftMedia = { id: string; type: string; width: number; height: number; size: number; altText: string };

const emptyDraft = (): ComposeDraft => ({
  key: crypto.randomUUID(),
  text: '',
  kind: 'post',
  parts: [newThreadPart(), newThreadPart()],
  inReplyTo: '',
  recipient: '',
  accountIds: [],
  variants: {},
  when: 'now',
  localDateTime: '',
  media: [],
});

/**
 * The draft and its idempotency key live in sessionStorage: a reload, a back-button return or a retry
 * after a network error resubmits with the same key. A new key only comes from `startNew()`.
 */
export function useComposeDraft(storageKey: string) {
  const [draft, setDraft] = useState<ComposeDraft | null>(null);

  useEffect(() => {
    const stored = sessionStorage.getItem(storageKey);
    let initial: ComposeDraft;
    try {
      initial = stored ? { ...emptyDraft(), ...(JSON.parse(stored) as Partial<ComposeDraft>) } : emptyDraft();
    } catch {
      initial = emptyDraft();
    }
    sessionStorage.setItem(storageKey, JSON.stringify(initial));
    // eslint-disable-next-line react-hooks/set-state-in-effect -- sessionStorage exists only in the browser, after mount
    setDraft(initial);
  }, [storageKey]);

  const update = useCallback(
    (change: Partial<Omit<ComposeDraft, 'key'>>) => {
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
    const next = emptyDraft();
    sessionStorage.setItem(storageKey, JSON.stringify(next));
    setDraft(next);
  }, [storageKey]);

  return { draft, update, startNew };
}

'use client';

import { useSessionDraft } from '@/components/ui/use-session-draft';
import { newThreadPart, type DraftMedia, type ThreadPart } from './draft-parts';

export type { DraftMedia } from './draft-parts';

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
  /** The post's first comment ('' or absent: none; absent in drafts saved before first comments existed). */
  firstComment?: string;
  /** Own first comments by account id (the account tabs); an account without one gets `firstComment`. */
  firstComments?: Record<string, string>;
  /** This post's link tracking (where the workspace tracks links); absent: the workspace's defaults. */
  links?: { track: boolean; presetId: string; campaign: string };
  /** The chosen format by account id (Instagram's Story); absent in drafts saved before formats existed. */
  formats?: Record<string, string>;
  /** Each account's per-post options (TikTok's privacy level…); absent in drafts saved before options existed. */
  options?: Record<string, Record<string, unknown>>;
  when: 'now' | 'later' | 'queue';
  localDateTime: string;
  /** Images already uploaded (POST /api/app/media), in order; a reload keeps them with the draft. */
  media: DraftMedia[];
};

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

/** The composer's draft and key in sessionStorage (components/ui/use-session-draft.ts). */
export function useComposeDraft(storageKey: string) {
  return useSessionDraft(storageKey, emptyDraft);
}

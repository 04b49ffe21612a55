import type { FormAction } from '@/lib/auth/action';
import type { AnswerActionData } from '@/lib/inbox/answer-state';

/** The inbox page's server actions, as its components receive them (props: components never import from app/). */
export type ConversationActions = {
  answer: FormAction<AnswerActionData>;
  presence: FormAction;
  assign: FormAction;
  done: FormAction;
  note: FormAction;
};

/** A server action's FormData from plain fields. */
export const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

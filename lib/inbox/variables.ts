// A saved reply's variables (docs/inbox.md#saved-replies), filled from the item it answers: browser-safe, the
// composer shows the text it will send.

export const SAVED_REPLY_VARIABLES = {
  first_name: 'The author’s first name (else their handle)',
  name: 'The author’s name (else their handle)',
  handle: 'The author’s handle, with @',
  account: 'Our account’s handle',
} as const;

export type VariableSource = { authorName: string | null; authorHandle: string; accountHandle: string };

/** The text with each `{variable}` filled; an unknown one is left as written (the member sees it before sending). */
export function fillVariables(text: string, item: VariableSource): string {
  const handle = item.authorHandle.startsWith('@') ? item.authorHandle : `@${item.authorHandle}`;
  const name = item.authorName?.trim() || handle;
  const values: Record<keyof typeof SAVED_REPLY_VARIABLES, string> = {
    first_name: item.authorName?.trim().split(/\s+/)[0] || handle,
    name,
    handle,
    account: item.accountHandle,
  };
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? values[key as keyof typeof values] : whole,
  );
}

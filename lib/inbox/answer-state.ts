/** What the inbox page's answer action tells the form beyond ok/message (browser-safe: a type only). */
export type AnswerActionData = {
  /** Someone took the place first: who and what, and the count to send another anyway. */
  answeredBy?: string;
  answeredText?: string;
  answers?: number;
  /** The first submit with this key is still running: send it again with the same key shortly. */
  retryAfterSeconds?: number;
  /** The place this answer took (1: the first answer). */
  number?: number;
};

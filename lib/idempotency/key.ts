/** docs/architecture.md#inbound-idempotency: 1–255 printable ASCII characters (space to tilde). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

export type KeyCheck = { ok: true; key: string } | { ok: false; detail: string };

export function checkIdempotencyKey(value: string | null | undefined): KeyCheck {
  if (value === null || value === undefined)
    return {
      ok: false,
      detail: 'The Idempotency-Key header is required: send one unique key per intent and reuse it on every retry.',
    };
  if (value.length === 0) return { ok: false, detail: 'The Idempotency-Key must not be empty.' };
  if (value.length > 255) return { ok: false, detail: 'The Idempotency-Key must be at most 255 characters.' };
  if (!IDEMPOTENCY_KEY_PATTERN.test(value))
    return { ok: false, detail: 'The Idempotency-Key must contain only printable ASCII characters.' };
  return { ok: true, key: value };
}

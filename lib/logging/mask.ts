const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
const EMAIL = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+\.[a-z]{2,}\b/gi;

/**
 * Free text from elsewhere, about to be logged or stored (an SMTP server's refusal names the recipient: "550 <a@b.c>
 * unknown"): email addresses and URL credentials masked, as pino masks the `email` and secret fields of every line.
 */
export function maskPersonalText(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1[redacted]@').replace(EMAIL, '[email]').slice(0, 500);
}

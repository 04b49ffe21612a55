/** The shortest password accepted (NIST SP 800-63B suggests at least 8; we ask for 12). */
export const MIN_PASSWORD_LENGTH = 12;

/** Why a new password is refused, or null when it is acceptable. */
export function checkNewPassword(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  return null;
}

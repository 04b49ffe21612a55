import { z } from 'zod';

const emailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }).loose());

/**
 * The GitHub user's primary email if GitHub has verified it, else null. The profile's public email may be
 * unverified (anyone can type an address there), so sign-in matches members on this one only.
 * Needs the `user:email` scope (next-auth's GitHub provider asks for it).
 */
export async function verifiedPrimaryGitHubEmail(
  accessToken: string,
  options: { apiUrl?: string; fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<string | null> {
  try {
    const response = await (options.fetch ?? fetch)(`${options.apiUrl ?? 'https://api.github.com'}/user/emails`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'semel' },
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (!response.ok) return null;
    const parsed = emailsSchema.safeParse(await response.json());
    const primary = parsed.success ? parsed.data.find((e) => e.primary && e.verified) : undefined;
    return primary ? primary.email.trim().toLowerCase() : null;
  } catch {
    return null; // GitHub unreachable or an odd answer: no sign-in, never a guess
  }
}

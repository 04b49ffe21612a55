import type { Database } from '@/db/client';
import { lockLinkSettings, saveLinkSettings } from '@/db/queries/links';
import type { LinkSettings, ShortenerName } from '@/db/schema';
import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';
import type { FieldErrors } from '@/lib/posts/targets';

/**
 * The associated data a shortener's secret is sealed with: its workspace, the shortener and the URL it was given for.
 * A secret stored for one server never opens for another: if the settings row ever names another shortener or URL than
 * the one its secret was sealed for, the secret cannot be read, so it is never sent there.
 */
export const shortenerSecretContext = (workspaceId: string, shortener: ShortenerName, url: string | null) =>
  `link_settings:${workspaceId}:${shortener}:${url ?? ''}`;

/** The stored secret of the workspace's shortener, opened for that shortener and URL only; null if it cannot be. */
export function openShortenerSecret(settings: LinkSettings, key: string): string | null {
  if (!settings.shortenerSecretSealed) return null;
  try {
    return decryptSecret(
      settings.shortenerSecretSealed,
      key,
      shortenerSecretContext(settings.workspaceId, settings.shortener, settings.shortenerUrl),
    );
  } catch {
    return null; // sealed for another shortener or URL (or before secrets were bound to them): given again
  }
}

export type LinkSettingsInput = {
  workspaceId: string;
  utm: boolean;
  shorten: boolean;
  shortener: ShortenerName;
  shortenerUrl: string | null;
  /** A new secret; blank keeps the stored one — only while the shortener and its URL stay the same. */
  shortenerSecret?: string;
};

/**
 * Settings → Links, saved (docs/content.md#short-links-and-utm). A stored secret goes only to the server it was given
 * for: when the shortener or its URL changes it is dropped, and an external shortener then needs its secret again
 * (a field error, nothing saved). A new secret is sealed for the shortener and URL it is saved with.
 */
export async function saveLinkTrackingSettings(
  db: Database,
  input: LinkSettingsInput,
  key: string,
): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  return db.transaction(async (tx) => {
    const current = await lockLinkSettings(tx, input);
    const moved =
      !current || current.shortener !== input.shortener || (current.shortenerUrl ?? null) !== input.shortenerUrl;
    const external = input.shortener !== 'semel';
    let sealed: string | null | undefined;
    if (!external)
      sealed = null; // Semel's own links take no secret
    else if (input.shortenerSecret)
      sealed = encryptSecret(
        input.shortenerSecret,
        key,
        shortenerSecretContext(input.workspaceId, input.shortener, input.shortenerUrl),
      );
    else if (moved || !current?.shortenerSecretSealed)
      return {
        ok: false as const,
        errors: {
          shortenerSecret: [
            moved && current?.shortenerSecretSealed
              ? 'Give it again: the shortener or its URL changed, and a stored secret is never sent to another server'
              : 'Required for this shortener',
          ],
        },
      };
    await saveLinkSettings(tx, {
      workspaceId: input.workspaceId,
      utm: input.utm,
      shorten: input.shorten,
      shortener: input.shortener,
      shortenerUrl: input.shortenerUrl,
      ...(sealed === undefined ? {} : { shortenerSecretSealed: sealed }),
    });
    return { ok: true as const };
  });
}

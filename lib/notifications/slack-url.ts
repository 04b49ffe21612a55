import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';

/** Sealed to the workspace (as webhook secrets are to their endpoint): a sealed URL copied to another row does not open. */
export const sealSlackUrl = (url: string, key: string, workspaceId: string) =>
  encryptSecret(url, key, `slack-webhook:${workspaceId}`);

export const openSlackUrl = (sealed: string, key: string, workspaceId: string) =>
  decryptSecret(sealed, key, `slack-webhook:${workspaceId}`);

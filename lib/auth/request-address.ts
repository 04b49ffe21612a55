import { getEnv } from '@/lib/env';
import { parseAddressList } from '@/lib/net/address-list';
import { clientAddress } from './client-address';
import { currentPeer } from './peer-address';

/** The current request's client address: the socket's peer, or what TRUSTED_PROXIES vouch for (client-address.ts). */
export function requestAddress(): string {
  const peer = currentPeer();
  return clientAddress(
    peer?.address,
    peer?.forwardedFor,
    parseAddressList(getEnv().TRUSTED_PROXIES, { hostNames: false }),
  );
}

/** A "replying" heartbeat lives this long: the page sends one every PRESENCE_BEAT_MS while the member writes. */
export const PRESENCE_TTL_MS = 15_000;
export const PRESENCE_BEAT_MS = 5_000;

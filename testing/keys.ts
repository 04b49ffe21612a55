// Keys for tests only: fixed, so a failure replays with the same bytes; never a deployment's.

/** APP_ENCRYPTION_KEY for tests: seals account credentials, API tokens and OAuth state. */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');

import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// The production build minifies class names; these checks read what that server really printed
// (with-db.mts copies its stdout and stderr to LOG_FILE, see playwright.config.ts).
const LOG_FILE = path.join(process.env.E2E_DATA_DIR ?? '.data/e2e', 'server.log');
const size = () => {
  try {
    return statSync(LOG_FILE).size;
  } catch {
    return 0;
  }
};
const logSince = (offset: number) => readFileSync(LOG_FILE).subarray(offset).toString('utf8');
const PROBE = 'log-probe';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Makes the database refuse posts carrying the probe word: a real failed query whose parameters are
  // the post text, the Idempotency-Key and the user's ids, as in any unexpected database error.
  await e2eSql().unsafe(
    `alter table posts add constraint e2e_log_probe_ck check (text not like '%${PROBE}%') not valid`,
  );
});
test.afterAll(async () => {
  await e2eSql().unsafe('alter table posts drop constraint if exists e2e_log_probe_ck');
});

test('a failed query through the API and through a server action leaves no post text, email, key or hash in the production logs', async ({
  page,
  request,
}) => {
  const start = size();
  const secretText = `${PROBE} private words ${randomUUID()}`;
  const formText = `${PROBE} form words ${randomUUID()}`;
  const idempotencyKey = `idem-${randomUUID()}`;

  // An admin creates a key in the UI (the token is shown once; the hash is what the server stores).
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings/api');
  await page.getByLabel('Key name').fill(`logs ${randomUUID().slice(0, 8)}`);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const token = (await page.getByTestId('new-api-key').textContent())!.trim();
  const hash = createHash('sha256').update(token).digest('hex');
  const headers = { authorization: `Bearer ${token}` };
  const accountId = (await (await request.get('/api/v1/accounts', { headers })).json()).data[0].id as string;

  const failed = await request.post('/api/v1/posts', {
    headers: { ...headers, 'idempotency-key': idempotencyKey },
    data: { text: secretText, accountIds: [accountId] },
  });
  expect(failed.status()).toBe(500);
  expect(await failed.text()).not.toContain(secretText);

  // The same through the compose form's server action (Next.js logs an uncaught action error itself).
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByLabel('Text').fill(formText);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();

  // Both failures reached the log, as the database's error code and constraint only.
  await expect
    .poll(
      () =>
        logSince(start)
          .split('\n')
          .filter((line) => line.includes('e2e_log_probe_ck')).length,
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(2);
  const log = logSince(start);
  expect(log).toContain('23514');
  for (const secret of [secretText, formText, PROBE + ' private', idempotencyKey, token, hash, 'admin@demo.test']) {
    expect(log, `the log contains ${secret.slice(0, 24)}…`).not.toContain(secret);
  }
  expect(log).not.toMatch(/params:/);
  expect(await e2eSql()`select 1 from posts where text in (${secretText}, ${formText})`).toHaveLength(0);
});

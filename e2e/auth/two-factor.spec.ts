import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { DEMO_PASSWORD, signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { newMember } from '../support/members';

/** What an authenticator app shows `steps` periods from now. */
const codeAt = (secret: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

async function fillPassword(page: Page, email: string) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a member enrols TOTP from the QR page, signs out, and signs back in with password + code', async ({ page }) => {
  const email = await newMember();
  await signIn(page, email);
  await page.goto('/settings/security');
  await expect(page.getByTestId('two-factor-status')).toContainText('Off');
  await page.getByRole('link', { name: 'Set up two-factor sign-in' }).click();
  await expect(page).toHaveURL(/\/two-factor$/);
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await page.getByLabel('Code from your app').fill(codeAt(secret, 0));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  const [recovery] = await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents();
  await page.getByRole('link', { name: 'I saved them — continue' }).click();
  await expect(page.getByTestId('two-factor-status')).toContainText('On');
  const [stored] = await e2eSql()<{ secret_sealed: string }[]>`
    select f.secret_sealed from totp_factors f join users u on u.id = f.user_id where u.email = ${email}`;
  expect(stored!.secret_sealed).not.toContain(secret);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);

  // The password alone is not enough: the form asks for the code, and no session exists yet.
  await fillPassword(page, email);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Enter the 6-digit code');
  await page.goto('/queue');
  await expect(page).toHaveURL(/\/signin/);

  await fillPassword(page, email);
  await code.fill('000000' === codeAt(secret, 1) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('That code is wrong');
  // The confirming code's step is spent, so the next step's code (accepted a step early) signs in.
  await code.fill(codeAt(secret, 1));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/queue$/);
  await expect(page.getByTestId('current-user')).toContainText(email);

  // A recovery code signs in once.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  await fillPassword(page, email);
  await code.fill(recovery!);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/queue$/);
});

test('an admin requires two-factor sign-in: a member without it is sent to enrol and can still sign out', async ({
  page,
  browser,
}) => {
  const email = await newMember();
  // An admin of its own, so admin@demo.test (which other specs sign in as) never gains a second factor.
  const admin = await newMember('admin');
  await signIn(page, admin);
  await page.goto('/settings/security');
  await page.getByLabel('Require two-factor sign-in for members of').check();
  await page.getByRole('button', { name: 'Save two-factor rule' }).click();
  // Who requires it must have it: the rule would otherwise lock its own admin out.
  await expect(page.getByText('Set up two-factor sign-in for yourself first')).toBeVisible();
  await page.getByRole('link', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Code from your app').fill(codeAt(secret, 0));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await page.getByRole('link', { name: 'I saved them — continue' }).click();
  await expect(page.getByTestId('two-factor-status')).toContainText('On');

  await page.getByLabel('Require two-factor sign-in for members of').check();
  await page.getByRole('button', { name: 'Save two-factor rule' }).click();
  await expect(page.getByText('Members now need two-factor sign-in')).toBeVisible();
  await expect
    .poll(
      async () =>
        (await e2eSql()<{ on: boolean }[]>`select require_two_factor as on from workspaces where slug = 'demo'`)[0]!.on,
    )
    .toBe(true);
  try {
    const member = await (await browser.newContext()).newPage();
    await member.goto('/signin');
    await member.getByLabel('Email').fill(email);
    await member.getByLabel('Password').fill(DEMO_PASSWORD);
    await member.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(member).toHaveURL(/\/two-factor$/);
    await expect(member.getByText('Your workspace requires two-factor sign-in')).toBeVisible();
    await member.goto('/calendar');
    await expect(member).toHaveURL(/\/two-factor$/);
    await member.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(member).toHaveURL(/\/signin\?signedOut=1$/);
  } finally {
    // Off again, through the database: other specs share the workspace and its members have no second factor.
    await e2eSql()`update workspaces set require_two_factor = false where slug = 'demo'`;
  }
});

test('changing one’s email: the link goes to the new address (Outbox) and changes it once followed, once', async ({
  page,
}) => {
  const email = await newMember('manager');
  const next = `new-${randomUUID().slice(0, 8)}@two-factor.test`;
  await signIn(page, email);
  await page.goto('/settings/security');
  await page.getByLabel('New email').fill('viewer@demo.test');
  await page.getByLabel('Current password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByText('Another account uses this email.')).toBeVisible();

  await page.getByLabel('New email').fill(next);
  // The form is reset after each answer (React form actions): the password is typed again.
  await page.getByLabel('Current password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByText(`We sent a link to ${next}`)).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText(email);

  await page.goto('/outbox');
  const mail = page
    .getByRole('list', { name: 'Emails' })
    .getByRole('listitem')
    .filter({ hasText: `to ${next}` });
  await expect(mail).toHaveCount(1);
  await mail.getByText('Confirm your new email for Semel').click();
  const body = (await mail.locator('pre').textContent())!;
  const link = /https?:\/\/\S+\/email-change\/\S+/.exec(body)![0];

  await page.goto(new URL(link).pathname);
  await page.getByRole('button', { name: 'Confirm new email' }).click();
  await expect(page.getByText(`Your email is now ${next}.`)).toBeVisible();
  await page.goto('/queue');
  await expect(page.getByTestId('current-user')).toContainText(next);

  await page.goto(new URL(link).pathname);
  await page.getByRole('button', { name: 'Confirm new email' }).click();
  await expect(page.getByText('This link is invalid, expired or already used.')).toBeVisible();
});

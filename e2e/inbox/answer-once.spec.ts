import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { connectSandboxAccount } from '../support/sandbox';

// The inbox's promise (docs/inbox.md#answering), in two browsers: two members answering one comment at once make one
// reply on the platform and the second is told who answered; a double-clicked saved reply is one reply; an answer
// whose call timed out after the platform stored it is found by reading the thread, never sent again.

// A production server on a shared two-core machine: two members, a publish, three answers and a reconciliation.
test.describe.configure({ timeout: 240_000 });

const items = (page: Page) => page.getByRole('list', { name: 'Items' });
const conversation = (page: Page) => page.getByRole('article', { name: /^Conversation with/ });

/** Our replies to one comment on the platform's own records (the sandbox's people's posts carry an inbound key). */
const repliesOnPlatform = async (commentId: string) =>
  (
    await e2eSql()<{ text: string }[]>`
    select text from sandbox.posts where in_reply_to_id = ${commentId} and inbound_key is null and deleted_at is null`
  ).map((r) => r.text);

test('two members answer one comment at once: one reply; a double-clicked saved reply: one reply; a lost answer is found, not resent', async ({
  browser,
}) => {
  const ada = await (await browser.newContext()).newPage();
  const max = await (await browser.newContext()).newPage();
  await signIn(ada, 'admin@demo.test');
  await signIn(max, 'manager@demo.test');

  // An X account of its own with a post of ours, and three of the sandbox's people commenting on it.
  const handle = await connectSandboxAccount(ada, 'X');
  await postNowAndOpen(ada, handle, `Our launch post ${randomUUID()}`);
  await expect(ada.getByText('Sent', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  const [account] = await e2eSql()<{ id: string }[]>`select id from social_accounts where handle = ${handle}`;
  const say = async (person: string, text: string) => {
    const response = await ada.request.post('/api/sandbox/inbound', {
      data: { accountId: account!.id, kind: 'reply', person, text },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const suffix = randomUUID().slice(0, 8);
  const comment = `Where is my order? ${suffix}`;
  const commentId = await say('ana', comment);
  const second = `Do you ship to Canada? ${suffix}`;
  const secondId = await say('ben', second);
  const third = `Is there a student discount? ${suffix}`;
  const thirdId = await say('chloe', third);

  // Both open the inbox; the comment appears without a reload (the inbox job reads it, the list is polled).
  await Promise.all([ada.goto('/inbox'), max.goto('/inbox')]);
  for (const page of [ada, max]) {
    await expect(items(page).getByRole('button').filter({ hasText: comment })).toBeVisible({ timeout: 60_000 });
    await items(page).getByRole('button').filter({ hasText: comment }).click();
    await expect(conversation(page).getByText(/Your post on X/)).toBeVisible();
  }

  // Both start answering: each sees the other is replying.
  await ada.getByLabel(/^Your answer to Ana Rivera/).fill('Ada here: it ships tomorrow.');
  await expect(conversation(max).getByText('Ada Admin is replying…')).toBeVisible({ timeout: 15_000 });
  await max.getByLabel(/^Your answer to Ana Rivera/).fill('Max here: the tracking link is on its way.');
  await expect(conversation(ada).getByText('Max Manager is replying…')).toBeVisible({ timeout: 15_000 });

  // Both press send at once: one answer is taken, the other member is told who answered and what.
  await Promise.all([ada, max].map((page) => page.getByRole('button', { name: 'Send reply', exact: true }).click()));
  const outcomes = await Promise.all(
    [ada, max].map(async (page) => {
      const form = page.getByRole('form', { name: 'Reply' });
      const told = form.getByRole('alert');
      const sent = form.getByRole('status').filter({ hasText: 'Sent: your answer is being published.' });
      await expect(told.or(sent)).toBeVisible({ timeout: 20_000 });
      return (await told.count()) > 0 ? ((await told.textContent()) ?? '') : 'sent';
    }),
  );
  expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
  const refused = outcomes.find((o) => o !== 'sent')!;
  const winner =
    outcomes[0] === 'sent'
      ? { name: 'Ada Admin', text: 'Ada here: it ships tomorrow.' }
      : { name: 'Max Manager', text: 'Max here: the tracking link is on its way.' };
  expect(refused).toContain(`${winner.name} answered first: “${winner.text}”. Your answer was not sent.`);
  await expect(conversation(ada).getByRole('list', { name: 'Answers' }).getByText('Sent', { exact: true })).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  expect(await repliesOnPlatform(commentId)).toEqual([winner.text]);

  // A saved reply of the workspace, double-clicked: one reply, its variables filled.
  await max.goto('/settings/saved-replies');
  await max.getByLabel('Name').fill(`Thanks ${suffix}`);
  await max.getByLabel('Text').fill('Thanks {first_name}, we are on it!');
  await max.getByRole('button', { name: 'Save reply' }).click();
  await expect(max.getByRole('list', { name: 'Saved replies' }).getByText(`Thanks ${suffix}`)).toBeVisible();
  await max.goto('/inbox');
  await items(max).getByRole('button').filter({ hasText: second }).click();
  await conversation(max)
    .getByLabel('Saved reply')
    .selectOption({ label: `Thanks ${suffix}` });
  await expect(
    conversation(max).getByText('Saved reply as it will be sent: “Thanks Ben, we are on it!”'),
  ).toBeVisible();
  await conversation(max).getByRole('button', { name: 'Send saved reply' }).dblclick();
  await expect(conversation(max).getByRole('list', { name: 'Answers' }).getByText('Sent', { exact: true })).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  expect(await repliesOnPlatform(secondId)).toEqual(['Thanks Ben, we are on it!']);

  // An answer whose call times out after the platform stored it: settled by reading the thread, not sent again.
  await ada.goto('/sandbox');
  const knobs = ada.getByRole('form', { name: 'Fault knobs', exact: true });
  await knobs.getByLabel('Account').selectOption({ label: `${handle} (X)` });
  await knobs.getByLabel('Timeout after commit (stored, no answer)').fill('1');
  await knobs.getByRole('button', { name: 'Apply faults' }).click();
  await expect(knobs.getByRole('status')).toHaveText('Faults set on 1 account.');
  await ada.goto('/inbox');
  await items(ada).getByRole('button').filter({ hasText: third }).click();
  await ada.getByLabel(/^Your answer to Chloé Martin/).fill('Yes: 20 % with a student card.');
  await ada.getByRole('button', { name: 'Send reply', exact: true }).click();
  const answers = conversation(ada).getByRole('list', { name: 'Answers' });
  await expect(answers.getByText('Being verified')).toBeVisible({ timeout: 30_000 });
  await expect(answers.getByText('Sent', { exact: true })).toBeVisible({ timeout: 60_000 });
  expect(await repliesOnPlatform(thirdId)).toEqual(['Yes: 20 % with a student card.']);
  const [attempts] = await e2eSql()<{ n: number; found: number }[]>`
    select count(a.*)::int as n,
      (select count(*)::int from reconciliations r join deliveries d2 on d2.id = r.delivery_id join posts p2 on p2.id = d2.post_id
        where p2.in_reply_to = ${thirdId} and r.decision = 'found') as found
    from posts p join deliveries d on d.post_id = p.id join attempts a on a.delivery_id = d.id
    where p.in_reply_to = ${thirdId}`;
  expect(attempts).toEqual({ n: 1, found: 1 });

  // The keyboard: k and j move between items (the newest first: the comment is the oldest of the three), e marks the
  // open one done.
  await ada.goto('/inbox?status=answered');
  await items(ada).getByRole('button').filter({ hasText: comment }).click();
  const current = items(ada).locator('[aria-current="true"]');
  await ada.keyboard.press('k');
  await expect(current).toContainText(second);
  await ada.keyboard.press('j');
  await expect(current).toContainText(comment);
  await expect(conversation(ada).getByRole('heading', { name: /^Ana Rivera/ })).toBeVisible();
  await ada.keyboard.press('e');
  await expect(conversation(ada).getByRole('status').filter({ hasText: 'Marked done.' })).toBeVisible();
  const [done] = await e2eSql()<{ done: boolean }[]>`
    select done_at is not null as done from inbox_items where platform_id = ${commentId}`;
  expect(done).toEqual({ done: true });
});

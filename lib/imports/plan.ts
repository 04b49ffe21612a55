import { createHash } from 'node:crypto';
import { canonicalJson } from '@/lib/idempotency/fingerprint';
import { postTextSchema, withinTwoYears } from '@/lib/posts/schemas';
import { normaliseText } from '@/lib/posts/text';
import { planFirstComments } from '@/lib/posts/first-comment';
import { checkTargets, type FieldErrors, type TargetAccount } from '@/lib/posts/targets';
import { MAX_THREAD_PARTS, MIN_THREAD_PARTS } from '@/lib/posts/thread-limits';
import { fillTemplate } from '@/lib/templates/variables';
import { canonicalTimeZone, zonedLocalToUtc } from '@/lib/time/zoned';
import type { PostTemplate } from '@/db/schema';
import type { CsvRow } from './parse';
import { eventLoopSlices } from './slices';

/** As for a post created in the composer or the API (lib/posts/create.ts): a minute's grace for "now". */
const PAST_TOLERANCE_MS = 60_000;

/** One post to create: a row, or a thread's rows (by part). */
export type PlannedPost = {
  rows: number[];
  kind: 'post' | 'thread';
  texts: string[];
  /** A single post's first comment (its `first_comment` cell), published where the network takes one. */
  firstComment?: string;
  /** The accounts (lower-case ids) that publish the first comment: set by the target check. */
  firstCommentAccounts?: ReadonlySet<string>;
  accountIds: string[];
  scheduledAt: Date;
  /** `import:<sha256(row key)>`: the post's idempotency key, unique per workspace (posts_workspace_idempotency_key_uq). */
  postKey: string;
  /** sha256 of the accounts and the time: what an "edited copy" shares with the row it edits. */
  matchKey: string;
  normalisedText: string;
};

/**
 * `candidates`: every post the rows describe (in file order, one per key); `posts`: those of them checked against
 * their networks (text limits, kinds) that passed — all of them, or those in the range asked for.
 */
export type ImportPlan = { candidates: PlannedPost[]; posts: PlannedPost[]; errors: Map<number, string[]> };

export type PlanContext = {
  accounts: readonly TargetAccount[];
  workspaceTimeZone: string;
  now: Date;
  /** The workspace's post templates by name (lower case), for a `template` column. */
  templates?: ReadonlyMap<string, Pick<PostTemplate, 'name' | 'text' | 'firstComment' | 'accountIds'>>;
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Each row's key: its `key` cell, else a hash of its normalised content (texts, accounts, instant), so the
 * same file uploaded again maps every row to the post it already created, and an edited row to a new one.
 * Checks every row with the product's rules (text, accounts by handle in the workspace, each network's text
 * limit and kinds, a time not in the past and within two years); a bad row is reported and never blocks the others.
 */
export async function planImport(
  rows: readonly CsvRow[],
  context: PlanContext,
  /** Check targets only for candidates [from, to): a chunk of a file whose rows are already previewed. */
  range: { from: number; to: number } = { from: 0, to: Infinity },
): Promise<ImportPlan> {
  const errors = new Map<number, string[]>();
  const fail = (row: number, message: string) => errors.set(row, [...(errors.get(row) ?? []), message]);
  const slices = eventLoopSlices(); // 5,000 rows take a second or more: the event loop runs between slices
  const checked: Checked[] = [];
  for (const r of rows) {
    checked.push(checkRow(fromTemplate(r, context, fail), context, fail));
    await slices.pause();
  }

  const singles: Checked[] = [];
  const groups = new Map<string, Checked[]>();
  for (const c of checked) {
    if (c.group === '') singles.push(c);
    else groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  }

  const planned: PlannedPost[] = [];
  for (const c of singles) {
    if (c.row.cells.part.trim() !== '') fail(c.row.row, '`part` needs a `thread_group`');
    if (errors.has(c.row.row)) continue;
    planned.push(toPost([c], 'post'));
    await slices.pause();
  }
  for (const [group, members] of groups) {
    const groupFail = (message: string) => members.forEach((m) => fail(m.row.row, message));
    const ordered = [...members].sort((a, b) => (a.part ?? 0) - (b.part ?? 0));
    if (members.length < MIN_THREAD_PARTS || members.length > MAX_THREAD_PARTS)
      groupFail(
        `Thread "${group}" has ${members.length} rows; a thread has ${MIN_THREAD_PARTS}–${MAX_THREAD_PARTS} parts`,
      );
    else if (ordered.some((m, i) => m.part !== i + 1))
      groupFail(`Thread "${group}": the parts must be numbered 1 to ${members.length}, each once`);
    const first = ordered[0]!;
    for (const m of ordered.slice(1)) {
      if (m.row.cells.accounts.trim() !== '' && !sameSet(m.accountIds, first.accountIds))
        fail(m.row.row, `Thread "${group}": a later part must name part 1's accounts or leave them empty`);
      if (m.row.cells.scheduled_at.trim() !== '' && m.scheduledAt?.getTime() !== first.scheduledAt?.getTime())
        fail(m.row.row, `Thread "${group}": a later part must have part 1's time or leave it empty`);
    }
    if (members.some((m) => errors.has(m.row.row))) {
      for (const m of members)
        if (!errors.has(m.row.row)) fail(m.row.row, `Another row of thread "${group}" is invalid`);
      continue;
    }
    planned.push(toPost(ordered, 'thread'));
    await slices.pause();
  }

  // The same key twice in one file: the first row wins, the others are reported.
  const byKey = new Map<string, PlannedPost>();
  const candidates: PlannedPost[] = [];
  for (const post of planned.sort((a, b) => a.rows[0]! - b.rows[0]!)) {
    const earlier = byKey.get(post.postKey);
    if (earlier) {
      for (const row of post.rows) fail(row, `Same key as row ${earlier.rows[0]} of this file: imported once`);
      continue;
    }
    byKey.set(post.postKey, post);
    candidates.push(post);
  }
  // The product's own target check (lib/posts/targets.ts): each network's text limit and the kinds it takes.
  const posts: PlannedPost[] = [];
  for (const post of candidates.slice(range.from, range.to)) {
    const messages = targetErrors(post, context);
    for (const row of post.rows) messages.forEach((m) => fail(row, m));
    if (messages.length === 0) posts.push(post);
    await slices.pause();
  }
  return { candidates, posts, errors };
}

/**
 * A row naming a `template`: its text and first comment are the template's with the row's variables filled (a column
 * per variable), and its accounts the template's where the row names none. A template unknown, a variable without a
 * value, or a text given beside the template is that row's error.
 */
function fromTemplate(row: CsvRow, context: PlanContext, fail: (row: number, message: string) => void): CsvRow {
  const name = row.cells.template.trim();
  if (name === '') return row;
  const template = context.templates?.get(name.toLowerCase());
  if (!template) {
    fail(row.row, `template: no template "${name}" in this workspace`);
    return row;
  }
  if (row.cells.text.trim() !== '') fail(row.row, 'text: give a text or a template, not both');
  const variables = row.variables ?? {};
  const text = fillTemplate(template.text, variables);
  const comment = template.firstComment ? fillTemplate(template.firstComment, variables) : null;
  for (const missing of new Set([...text.missing, ...(comment?.missing ?? [])]))
    fail(row.row, `template "${template.name}": no value for {{${missing}}} (a column named ${missing})`);
  const accounts = context.accounts.filter((a) => template.accountIds.includes(a.id));
  return {
    ...row,
    cells: {
      ...row.cells,
      text: text.text,
      first_comment: row.cells.first_comment.trim() !== '' ? row.cells.first_comment : (comment?.text ?? ''),
      accounts:
        row.cells.accounts.trim() !== ''
          ? row.cells.accounts
          : accounts.map((a) => `${a.provider}:${a.handle}`).join(';'),
    },
  };
}

type Checked = {
  row: CsvRow;
  group: string;
  part: number | null;
  accountIds: string[];
  scheduledAt: Date | null;
};

function checkRow(row: CsvRow, context: PlanContext, fail: (row: number, message: string) => void): Checked {
  const { cells } = row;
  const n = row.row;
  if (row.extraCells) fail(n, 'The row has more cells than the header has columns');
  const group = cells.thread_group.trim();
  const laterPart = group !== '' && cells.part.trim() !== '1';
  const text = postTextSchema.safeParse(cells.text);
  if (!text.success) fail(n, `text: ${text.error.issues[0]!.message}`);
  if (cells.first_comment.trim() !== '') {
    const comment = postTextSchema.safeParse(cells.first_comment);
    if (group !== '') fail(n, 'first_comment: a thread takes no first comment (add it as the next part)');
    else if (!comment.success) fail(n, `first_comment: ${comment.error.issues[0]!.message}`);
  }

  let part: number | null = null;
  if (group !== '') {
    part = /^\d{1,3}$/.test(cells.part.trim()) ? Number(cells.part.trim()) : null;
    if (part === null || part < 1) fail(n, '`part` must be a whole number from 1 (the thread’s first part)');
  }

  const accountIds: string[] = [];
  const handles = cells.accounts
    .split(';')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  if (handles.length === 0) {
    if (!laterPart) fail(n, 'accounts: name at least one account handle (several separated by ";")');
  } else {
    for (const handle of handles) {
      const found = resolveHandle(handle, context.accounts);
      if (typeof found === 'string') fail(n, `accounts: ${found}`);
      else if (!accountIds.includes(found.id)) accountIds.push(found.id);
    }
    if (accountIds.length > 50) fail(n, 'accounts: at most 50 accounts');
  }

  let scheduledAt: Date | null = null;
  if (cells.scheduled_at.trim() === '') {
    if (!laterPart) fail(n, 'scheduled_at: required (ISO 8601, e.g. 2026-12-01T09:30:00Z, or a local time)');
  } else {
    const time = parseTime(cells.scheduled_at.trim(), cells.time_zone.trim(), context);
    if (typeof time === 'string') fail(n, time);
    else scheduledAt = time;
  }
  return { row, group, part, accountIds, scheduledAt };
}

/** `@handle`, `handle`, or `network:@handle` where two networks share a handle; case-insensitive. */
function resolveHandle(written: string, accounts: readonly TargetAccount[]): TargetAccount | string {
  const prefixed = /^([a-z]+):(.+)$/i.exec(written);
  const provider = prefixed?.[1]?.toLowerCase();
  const bare = (h: string) => h.trim().replace(/^@/, '').toLowerCase();
  const wanted = bare(prefixed ? prefixed[2]! : written);
  const matches = accounts.filter(
    (a) => !a.disconnectedAt && bare(a.handle) === wanted && (!provider || a.provider === provider),
  );
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) return `no connected account "${written}" in this workspace`;
  return `"${written}" names ${matches.length} accounts: write it as ${matches.map((a) => `${a.provider}:${a.handle}`).join(' or ')}`;
}

const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::00)?$/;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** ISO 8601 with an offset, or a local time in the row's `time_zone` (else the workspace's zone). */
function parseTime(value: string, zoneCell: string, context: PlanContext): Date | string {
  let date: Date;
  if (ISO_WITH_OFFSET.test(value)) {
    date = new Date(value);
    if (Number.isNaN(date.getTime())) return `scheduled_at: "${value}" is not a date`;
  } else {
    const local = LOCAL_TIME.exec(value);
    if (!local)
      return `scheduled_at: "${value}" is not ISO 8601 (2026-12-01T09:30:00Z) or a local time (2026-12-01 09:30)`;
    const zone = zoneCell === '' ? context.workspaceTimeZone : canonicalTimeZone(zoneCell);
    if (!zone) return `time_zone: "${zoneCell}" is not a time zone name such as Europe/Berlin`;
    const zoned = zonedLocalToUtc(`${local[1]}T${local[2]}`, zone);
    if (!zoned.ok) return `scheduled_at: ${zoned.error}`;
    date = zoned.date;
  }
  if (date.getTime() < context.now.getTime() - PAST_TOLERANCE_MS) return 'scheduled_at: the time is in the past';
  if (!withinTwoYears(date.toISOString())) return 'scheduled_at: must be within two years from now';
  return date;
}

/** The product's target checks for one planned post; sets the accounts that publish its first comment. */
function targetErrors(post: PlannedPost, context: PlanContext): string[] {
  const { accountIds, kind, texts } = post;
  const fieldErrors: FieldErrors = {};
  const accounts = checkTargets(
    context.accounts.filter((a) => accountIds.includes(a.id)),
    kind === 'thread' ? { accountIds, kind, parts: texts } : { accountIds, kind, text: texts[0]! },
    fieldErrors,
  );
  if (post.firstComment !== undefined)
    post.firstCommentAccounts = new Set(
      planFirstComments({ accounts, firstComment: post.firstComment }, fieldErrors).keys(),
    );
  return Object.entries(fieldErrors).flatMap(([field, list]) =>
    list.map(
      (m) =>
        `${field.replace(/^parts\.(\d+)\.text$/, (_, i: string) => `part ${Number(i) + 1}`).replace(/^firstComment$/, 'first_comment')}: ${m}`,
    ),
  );
}

function toPost(members: Checked[], kind: 'post' | 'thread'): PlannedPost {
  const first = members[0]!;
  const texts = members.map((m) => m.row.cells.text);
  const firstComment =
    kind === 'post' && first.row.cells.first_comment.trim() !== '' ? first.row.cells.first_comment : undefined;
  const accountIds = first.accountIds;
  const scheduledAt = first.scheduledAt!;
  const sortedAccounts = [...accountIds].map((id) => id.toLowerCase()).sort();
  const keyCell = first.row.cells.key.trim();
  const rowKey =
    keyCell !== ''
      ? `key:${keyCell}`
      : `content:${sha256(
          canonicalJson({
            kind,
            texts: texts.map(normaliseText),
            // Only when there is one, so a row without it keeps the key it had before first comments existed.
            ...(firstComment !== undefined ? { firstComment: normaliseText(firstComment) } : {}),
            accounts: sortedAccounts,
            at: scheduledAt.toISOString(),
          }),
        )}`;
  return {
    rows: members.map((m) => m.row.row),
    kind,
    texts,
    ...(firstComment !== undefined ? { firstComment } : {}),
    accountIds,
    scheduledAt,
    postKey: `import:${sha256(rowKey)}`,
    matchKey: sha256(`${sortedAccounts.join(',')}|${scheduledAt.toISOString()}`),
    normalisedText: normaliseText(texts.join('\n\n')),
  };
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

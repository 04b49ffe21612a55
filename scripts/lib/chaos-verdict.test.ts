import { describe, expect, it } from 'vitest';
import { judge, pathOf, tallyByNetwork, type Copy, type DeliveryRow } from './chaos-verdict';

const row = (over: Partial<DeliveryRow> = {}): DeliveryRow => ({
  id: 'd1',
  text: 'chaos t #1',
  status: 'sent',
  externalId: '100',
  failureReason: null,
  profile: 'plain/x',
  source: 'db',
  attemptCount: 1,
  reconciliations: [],
  history: 'scheduled→publishing→sent',
  ...over,
});
const copies = (...ids: string[]): Map<string, Copy[]> =>
  new Map(ids.length ? [['chaos t #1', ids.map((id) => ({ id, text: 'chaos t #1' }))]] : []);
type Failure = keyof ReturnType<typeof judge>['failures'];
const failuresOf = (rows: DeliveryRow[], byText: Map<string, Copy[]>) =>
  (Object.entries(judge(rows, byText).failures) as [Failure, string[]][])
    .filter(([, ids]) => ids.length > 0)
    .map(([name]) => name)
    .sort();

describe('chaos verdict: each delivery against the copies on the platform', () => {
  const cases: { name: string; rows: DeliveryRow[]; copies: Map<string, Copy[]>; failures: Failure[] }[] = [
    { name: 'sent with exactly its one copy passes', rows: [row()], copies: copies('100'), failures: [] },
    {
      name: 'two copies of a sent delivery: a duplicate, and sent without exactly one',
      rows: [row()],
      copies: copies('100', '101'),
      failures: ['duplicates', 'sentNotExactlyOne'],
    },
    { name: 'sent with no copy: lost', rows: [row()], copies: copies(), failures: ['lost', 'sentNotExactlyOne'] },
    {
      name: 'sent linking to another copy than the one on the platform',
      rows: [row({ externalId: '999' })],
      copies: copies('100'),
      failures: ['sentWrongLink'],
    },
    ...['scheduled', 'publishing', 'ambiguous'].map((status) => ({
      name: `${status} at the end: unsettled and lost`,
      rows: [row({ status, externalId: null })],
      copies: copies(),
      failures: ['lost', 'unsettled'] as Failure[],
    })),
    {
      name: 'failed but live on the platform',
      rows: [row({ status: 'failed', externalId: null })],
      copies: copies('100'),
      failures: ['liveButNotSent'],
    },
    {
      name: 'failed with nothing on the platform passes',
      rows: [row({ status: 'failed', externalId: null, failureReason: '403' })],
      copies: copies(),
      failures: [],
    },
    {
      name: 'needs_review without evidence',
      rows: [row({ status: 'needs_review', externalId: null })],
      copies: copies(),
      failures: ['reviewWithoutEvidence'],
    },
    {
      name: 'needs_review with evidence and no copy passes',
      copies: copies(),
      failures: [],
      rows: [
        row({
          status: 'needs_review',
          externalId: null,
          failureReason: 'Not found',
          reconciliations: [{ decision: 'needs_review', evidence: { reads: 2 } }],
        }),
      ],
    },
    {
      name: 'needs_review with two copies, both listed: still a duplicate, but detected',
      copies: copies('100', '101'),
      failures: ['duplicates'],
      rows: [
        row({
          status: 'needs_review',
          externalId: null,
          failureReason: '2 copies',
          reconciliations: [{ decision: 'needs_review', evidence: { copies: [{ id: '100' }, { id: '101' }] } }],
        }),
      ],
    },
    {
      name: 'needs_review with two copies, one listed (an id prefix does not count)',
      copies: copies('100', '101'),
      failures: ['duplicates', 'reviewCopiesNotListed'],
      rows: [
        row({
          status: 'needs_review',
          externalId: null,
          failureReason: '2 copies',
          reconciliations: [{ decision: 'needs_review', evidence: { copies: ['100', '1011'] } }],
        }),
      ],
    },
    {
      name: 'one text, two deliveries: one intent made twice',
      rows: [row(), row({ id: 'd2' })],
      copies: copies('100'),
      failures: ['duplicateIntents'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(failuresOf(c.rows, c.copies)).toEqual([...c.failures].sort());
    });
  }

  it('a listed duplicate in review is counted among the detected ones', () => {
    const verdict = judge(
      [
        row({
          status: 'needs_review',
          failureReason: '2 copies',
          reconciliations: [{ decision: 'needs_review', evidence: { ids: '100,101' } }],
        }),
      ],
      copies('100', '101'),
    );
    expect(verdict.duplicatesListed).toEqual(['d1']);
    expect(verdict.failures.duplicates).toEqual(['d1']);
    expect(verdict.copies).toBe(2);
  });
});

describe('chaos verdict: figures per profile and per network', () => {
  const byText = new Map<string, Copy[]>([
    ['a', [{ id: '1', text: 'a' }]],
    ['b', [{ id: 'at://did:plc:x/app.bsky.feed.post/3k', text: 'b' }]],
    [
      'c',
      [
        { id: 'urn:li:share:7', text: 'c' },
        { id: 'urn:li:share:8', text: 'c' },
      ],
    ],
  ]);
  const rows = [
    row({ id: 'a', text: 'a', profile: 'plain/x', externalId: '1' }),
    row({ id: 'z', text: 'z', profile: 'x-nodedupe/x', status: 'ambiguous', externalId: null }),
    row({ id: 'b', text: 'b', profile: 'bluesky/bluesky', externalId: 'at://did:plc:x/app.bsky.feed.post/3k' }),
    row({ id: 'c', text: 'c', profile: 'plain/linkedin', externalId: 'urn:li:share:7' }),
    row({ id: 'f', text: 'f', profile: 'plain/linkedin', status: 'failed', externalId: null }),
  ];
  const verdict = judge(rows, byText);

  it('counts each profile’s deliveries, states, copies and failures on its own', () => {
    expect(Object.fromEntries(verdict.byProfile)).toEqual({
      'plain/x': expect.objectContaining({ deliveries: 1, sent: 1, copies: 1, duplicates: 0, lost: 0 }),
      'x-nodedupe/x': expect.objectContaining({ deliveries: 1, sent: 0, other: 0, unsettled: 1, lost: 1 }),
      'bluesky/bluesky': expect.objectContaining({ deliveries: 1, sent: 1, copies: 1, sentNotExactlyOne: 0 }),
      'plain/linkedin': expect.objectContaining({ deliveries: 2, sent: 1, other: 1, copies: 2, duplicates: 1 }),
    });
    expect(verdict.failures.sentWrongLink).toEqual([]);
  });

  it('sums a network’s profiles', () => {
    const byNetwork = tallyByNetwork(verdict.byProfile);
    expect([...byNetwork.keys()]).toEqual(['x', 'bluesky', 'linkedin']);
    expect(byNetwork.get('x')).toEqual(expect.objectContaining({ deliveries: 2, sent: 1, unsettled: 1, lost: 1 }));
    expect(byNetwork.get('linkedin')).toEqual(expect.objectContaining({ deliveries: 2, duplicates: 1 }));
  });
});

describe('chaos verdict: the path of a delivery', () => {
  const cases: [string, Parameters<typeof pathOf>[0], string][] = [
    ['sent with no reconciliation', { status: 'sent', failureReason: null, reconciliations: [] }, 'sent directly'],
    [
      'sent after a found check',
      {
        status: 'sent',
        failureReason: null,
        reconciliations: [
          { decision: 'not_found_recheck', evidence: {} },
          { decision: 'found', evidence: {} },
        ],
      },
      'found by reconciliation',
    ],
    [
      'sent after a release',
      {
        status: 'sent',
        failureReason: null,
        reconciliations: [
          { decision: 'released', evidence: {} },
          { decision: 'found', evidence: {} },
        ],
      },
      'released and republished',
    ],
    [
      'sent after checks that neither found nor released',
      { status: 'sent', failureReason: null, reconciliations: [{ decision: 'unreadable', evidence: {} }] },
      'sent after reconciliation',
    ],
    [
      'needs_review groups reasons without ids or times',
      {
        status: 'needs_review',
        failureReason: 'Copies 0b7c1a2e-1111-4222-8333-944445555666 at 2026-11-30T02:00:00.000Z: https://x.test/1',
        reconciliations: [],
      },
      'needs_review: Copies <id> at <time>: <link>',
    ],
    ['any other state is its name', { status: 'missed', failureReason: null, reconciliations: [] }, 'missed'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      expect(pathOf(input)).toBe(expected);
    });
  }
});

import { describe, expect, it } from 'vitest';
import { errorsCsv } from '@/lib/imports/errors-csv';
import { publicationReportCsv } from '@/lib/reports/csv';
import type { PublicationReport } from '@/lib/reports/publication';
import { csvCell } from './cell';

const PAYLOADS = ["x;=cmd|' /C calc'!A0", 'a|=1+1', 'note\t@SUM(A1)', 'b,-2+3', 'c;+1', 'd;\tx', 'e;\rx'];
const TRIGGER = /^[=+\-@\t\r]/;

/** Every piece a spreadsheet could make of the line when it splits on this separator, quotes stripped. */
const piecesOf = (line: string, separator: string) => line.split(separator).map((p) => p.replace(/^"+/, ''));

function expectNoFormula(text: string) {
  for (const line of text.split(/\r?\n/))
    for (const separator of [',', ';', '\t', '|'])
      for (const piece of piecesOf(line.replace(/^\uFEFF/, ''), separator))
        expect(
          TRIGGER.test(piece),
          `${JSON.stringify(piece)} of ${JSON.stringify(line)} split on ${JSON.stringify(separator)}`,
        ).toBe(false);
}

describe('21.10 the CSV formula guard covers every part after a separator, not only the first character', () => {
  it('21.10 a cell with a separator followed by = + - @ (or a tab or CR) never becomes a formula', () => {
    expect(csvCell("x;=cmd|' /C calc'!A0")).toBe("x;'=cmd|' /C calc'!A0");
    for (const payload of PAYLOADS) expectNoFormula(csvCell(payload));
    expect(csvCell('plain; text, with separators')).toBe('"plain; text, with separators"');
  });

  it('21.10 the import errors CSV and the publication report CSV are guarded the same way', () => {
    const errors = errorsCsv(
      PAYLOADS.map((text, i) => ({ row: i + 2, status: 'invalid' as const, errors: ['Bad row'], cells: { text } })),
      ['text'],
    );
    expectNoFormula(errors);
    const report = {
      workspace: { name: 'w', timeZone: 'UTC' },
      from: '2026-01-01',
      to: '2026-01-31',
      totals: {},
      incidents: [],
      rows: PAYLOADS.map((text) => ({
        text,
        part: null,
        network: 'X',
        account: 'x;@brand',
        status: 'sent',
        scheduledAt: '2026-01-02 10:00',
        publishedAt: null,
        latenessSeconds: null,
        link: null,
        settlement: 'sent',
        how: 'why;-1',
      })),
    } as unknown as PublicationReport;
    expectNoFormula(publicationReportCsv(report));
  });
});

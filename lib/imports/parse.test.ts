import { describe, expect, it } from 'vitest';
import { csvCell } from '@/lib/csv/cell';
import { errorsCsv } from './errors-csv';
import { IMPORT_MAX_BYTES, parseImportCsv } from './parse';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseImportCsv', () => {
  it('drops a UTF-8 byte order mark, reads CRLF lines and quoted cells with commas, quotes and line breaks', () => {
    const csv =
      '\uFEFFtext,accounts,scheduled_at\r\n"Hello, ""world""\r\nsecond line",@a;@b,2030-01-01T09:00:00Z\r\nplain,@a,2030-01-02 10:00\r\n';
    const parsed = parseImportCsv(bytes(csv));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows.map((r) => [r.row, r.cells.text, r.cells.accounts, r.cells.scheduled_at])).toEqual([
      [2, 'Hello, "world"\r\nsecond line', '@a;@b', '2030-01-01T09:00:00Z'],
      [3, 'plain', '@a', '2030-01-02 10:00'],
    ]);
    expect(parsed.rows[0]!.cells.key).toBe('');
  });

  it('matches header names case-insensitively, keeps optional columns, ignores unknown ones and skips blank lines', () => {
    const parsed = parseImportCsv(
      bytes(
        'Text, Accounts ,SCHEDULED_AT,Key,Thread Group,part,notes\n\na,@a,2030-01-01T09:00:00Z,k1,g,1,hi\n,,,,,,\n',
      ),
    );
    expect(parsed.ok && parsed.rows).toEqual([
      {
        row: 2,
        cells: {
          text: 'a',
          accounts: '@a',
          scheduled_at: '2030-01-01T09:00:00Z',
          time_zone: '',
          key: 'k1',
          thread_group: 'g',
          part: '1',
        },
        extraCells: false,
      },
    ]);
    expect(parsed.ok && parsed.ignoredColumns).toEqual(['notes']);
  });

  it('flags a row with more cells than columns (a row problem, not a file problem)', () => {
    const parsed = parseImportCsv(bytes('text,accounts,scheduled_at\na,@a,2030-01-01T09:00:00Z,extra\n'));
    expect(parsed.ok && parsed.rows[0]!.extraCells).toBe(true);
  });

  it('refuses what is not a usable CSV: binary, not UTF-8, an unclosed quote, missing columns, too many rows, too large', () => {
    expect(parseImportCsv(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]))).toMatchObject({ ok: false, status: 400 });
    expect(parseImportCsv(new Uint8Array([0x74, 0xff, 0xfe, 0x0a]))).toMatchObject({ ok: false, status: 400 });
    expect(parseImportCsv(bytes('text,accounts,scheduled_at\n"open,@a,2030\n'))).toMatchObject({
      ok: false,
      status: 400,
      title: 'Not a CSV file',
    });
    expect(parseImportCsv(bytes('text,handles\na,@a\n'))).toMatchObject({
      ok: false,
      status: 422,
      detail: expect.stringContaining('missing: accounts, scheduled_at'),
    });
    expect(parseImportCsv(bytes(''))).toMatchObject({ ok: false, status: 422 });
    const many = 'text,accounts,scheduled_at\n' + 'a,@a,2030-01-01T09:00:00Z\n'.repeat(5001);
    expect(parseImportCsv(bytes(many))).toMatchObject({ ok: false, status: 422, title: 'Too many rows' });
    expect(parseImportCsv(bytes('text,accounts,scheduled_at\n' + 'a,@a,2030-01-01T09:00:00Z\n'.repeat(5000))).ok).toBe(
      true,
    );
    expect(parseImportCsv(new Uint8Array(IMPORT_MAX_BYTES + 1))).toMatchObject({ ok: false, status: 413 });
  });
});

describe('errors CSV', () => {
  it('neutralises formulas (= + - @ tab CR) and quotes what needs it', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(['+1', '-1', '@SUM(A1)', '\tx'].map(csvCell)).toEqual(["'+1", "'-1", "'@SUM(A1)", "'\tx"]);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('plain')).toBe('plain');
  });

  it('lists only the invalid rows, with their errors and cells as uploaded', () => {
    const csv = errorsCsv(
      [
        { row: 2, status: 'new' },
        {
          row: 3,
          status: 'invalid',
          errors: ['text: Text is required', 'bad time'],
          cells: { text: '', accounts: '=cmd' },
        },
      ],
      ['text', 'accounts'],
    );
    expect(csv).toBe("row,errors,text,accounts\r\n3,text: Text is required; bad time,,'=cmd\r\n");
  });
});

import { describe, expect, it } from 'vitest';
import { csvCell } from '@/lib/csv/cell';
import { errorsCsv } from './errors-csv';
import { IMPORT_MAX_BYTES, parseImportCsv } from './parse';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseImportCsv', async () => {
  it('drops a UTF-8 byte order mark, reads CRLF lines and quoted cells with commas, quotes and line breaks', async () => {
    const csv =
      '\uFEFFtext,accounts,scheduled_at\r\n"Hello, ""world""\r\nsecond line",@a;@b,2030-01-01T09:00:00Z\r\nplain,@a,2030-01-02 10:00\r\n';
    const parsed = await parseImportCsv(bytes(csv));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows.map((r) => [r.row, r.cells.text, r.cells.accounts, r.cells.scheduled_at])).toEqual([
      [2, 'Hello, "world"\r\nsecond line', '@a;@b', '2030-01-01T09:00:00Z'],
      [3, 'plain', '@a', '2030-01-02 10:00'],
    ]);
    expect(parsed.rows[0]!.cells.key).toBe('');
  });

  it('matches header names case-insensitively, keeps optional columns, ignores unknown ones and skips blank lines', async () => {
    const parsed = await parseImportCsv(
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
          first_comment: '',
          template: '',
        },
        extraCells: false,
      },
    ]);
    expect(parsed.ok && parsed.ignoredColumns).toEqual(['notes']);
  });

  it('flags a row with more cells than columns (a row problem, not a file problem)', async () => {
    const parsed = await parseImportCsv(bytes('text,accounts,scheduled_at\na,@a,2030-01-01T09:00:00Z,extra\n'));
    expect(parsed.ok && parsed.rows[0]!.extraCells).toBe(true);
  });

  it('refuses what is not a usable CSV: binary, not UTF-8, an unclosed quote, missing columns, too many rows, too large', async () => {
    expect(await parseImportCsv(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]))).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await parseImportCsv(new Uint8Array([0x74, 0xff, 0xfe, 0x0a]))).toMatchObject({ ok: false, status: 400 });
    expect(await parseImportCsv(bytes('text,accounts,scheduled_at\n"open,@a,2030\n'))).toMatchObject({
      ok: false,
      status: 400,
      title: 'Not a CSV file',
    });
    expect(await parseImportCsv(bytes('text,handles\na,@a\n'))).toMatchObject({
      ok: false,
      status: 422,
      detail: expect.stringContaining('missing: accounts, scheduled_at'),
    });
    expect(await parseImportCsv(bytes(''))).toMatchObject({ ok: false, status: 422 });
    const many = 'text,accounts,scheduled_at\n' + 'a,@a,2030-01-01T09:00:00Z\n'.repeat(5001);
    expect(await parseImportCsv(bytes(many))).toMatchObject({ ok: false, status: 422, title: 'Too many rows' });
    expect(
      (await parseImportCsv(bytes('text,accounts,scheduled_at\n' + 'a,@a,2030-01-01T09:00:00Z\n'.repeat(5000)))).ok,
    ).toBe(true);
    expect(await parseImportCsv(new Uint8Array(IMPORT_MAX_BYTES + 1))).toMatchObject({ ok: false, status: 413 });
  });

  it('reads a file fed to the parser in slices: quoted cells, emoji and accents across the slice boundaries', async () => {
    const text = (i: number) => `row ${i} 😀 café, "quoted"\nline two ${'é😀'.repeat(i % 40)}`;
    const csv =
      'text,accounts,scheduled_at\n' +
      Array.from({ length: 2000 }, (_, i) => `"${text(i).replaceAll('"', '""')}",@a,2030-01-01T09:00:00Z`).join('\n');
    expect(csv.length).toBeGreaterThan(3 * 64 * 1024);
    const parsed = await parseImportCsv(bytes(csv));
    expect(parsed.ok && parsed.rows.length).toBe(2000);
    expect(parsed.ok && parsed.rows.every((r, i) => r.cells.text === text(i) && r.cells.accounts === '@a')).toBe(true);
    // An emoji whose two UTF-16 halves straddle the first slice's end (64 Ki characters).
    const head = 'text,accounts,scheduled_at\n"';
    const straddling = `${'a'.repeat(64 * 1024 - 1 - head.length)}😀b`;
    const split = await parseImportCsv(bytes(`${head}${straddling}",@a,2030-01-01T09:00:00Z\n`));
    expect(`${head}${straddling}`.charCodeAt(64 * 1024 - 1)).toBe(0xd83d);
    expect(split.ok && split.rows[0]!.cells.text).toBe(straddling);
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

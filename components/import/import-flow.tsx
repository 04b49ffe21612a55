'use client';

import { useRef, useState, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { errorsCsv } from '@/lib/imports/errors-csv';
import { IMPORT_COLUMNS } from '@/lib/imports/columns';
import { countRows, type ImportPreview, type ImportRowReport } from '@/lib/imports/types';
import { ImportRowsTable } from './import-rows-table';

type Stage =
  | { kind: 'idle' }
  | { kind: 'previewing'; file: File }
  | { kind: 'preview'; file: File; preview: ImportPreview }
  | { kind: 'importing'; file: File; preview: ImportPreview; done: number; total: number; rows: ImportRowReport[] }
  | { kind: 'done'; file: File; preview: ImportPreview; rows: ImportRowReport[] };

type ChunkAnswer = { postsDone: number; postsTotal: number; rows: ImportRowReport[] };

async function send<T>(url: string, form: FormData): Promise<T> {
  const response = await fetch(url, { method: 'POST', body: form });
  const body = (await response.json()) as T & { detail?: string; title?: string };
  if (!response.ok) throw new Error(body.detail ?? body.title ?? `HTTP ${response.status}`);
  return body;
}

/**
 * Upload → preview (per row: new, already imported, looks like an edited copy, errors) → Import with a progress
 * bar → counts. The Import button is disabled while it runs; even a repeated import is harmless, since every row
 * is keyed on the server (lib/imports/run.ts).
 */
export function ImportFlow({ workspaceTimeZone }: { workspaceTimeZone: string }) {
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const running = useRef(false);

  async function choose(file: File | undefined) {
    if (!file || running.current) return;
    setError(null);
    setStage({ kind: 'previewing', file });
    const form = new FormData();
    form.set('file', file);
    try {
      const preview = await send<ImportPreview>('/api/app/imports/preview', form);
      setStage({ kind: 'preview', file, preview });
    } catch (e) {
      setError((e as Error).message);
      setStage({ kind: 'idle' });
    }
  }

  async function runImport() {
    if (stage.kind !== 'preview' || running.current) return;
    running.current = true;
    const { file, preview } = stage;
    const importId = crypto.randomUUID();
    const byRow = new Map(preview.rows.filter((r) => r.status === 'invalid').map((r) => [r.row, r]));
    setError(null);
    setStage({ kind: 'importing', file, preview, done: 0, total: 1, rows: [] });
    try {
      for (let chunk = 0; ; chunk++) {
        const form = new FormData();
        form.set('file', file);
        form.set('importId', importId);
        form.set('chunk', String(chunk));
        const answer = await send<ChunkAnswer>('/api/app/imports', form);
        for (const r of answer.rows) byRow.set(r.row, r);
        const rows = [...byRow.values()].sort((a, b) => a.row - b.row);
        setStage({ kind: 'importing', file, preview, done: answer.postsDone, total: answer.postsTotal, rows });
        if (answer.postsDone >= answer.postsTotal) {
          setStage({ kind: 'done', file, preview, rows });
          break;
        }
      }
    } catch (e) {
      setError(`${(e as Error).message} — nothing is created twice: Import again to finish.`);
      setStage({ kind: 'preview', file, preview });
    } finally {
      running.current = false;
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  }

  const rows =
    stage.kind === 'done' || stage.kind === 'importing'
      ? stage.rows
      : stage.kind === 'preview'
        ? stage.preview.rows
        : [];
  const invalid = rows.some((r) => r.status === 'invalid');
  const busy = stage.kind === 'previewing' || stage.kind === 'importing';

  function downloadErrors() {
    const blob = new Blob([errorsCsv(rows, IMPORT_COLUMNS)], { type: 'text/csv;charset=utf-8' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `import-errors.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <div className="space-y-6">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="import-drop-zone"
        className={`rounded-lg border-2 border-dashed p-6 text-sm ${dragging ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300 bg-white'}`}
      >
        <label htmlFor="import-file" className="block font-medium text-slate-900">
          CSV file
        </label>
        <p id="import-file-help" className="mt-1 text-slate-600">
          Drop a file here or choose one. Columns: <code>text</code>, <code>accounts</code> (handles separated by
          &ldquo;;&rdquo;), <code>scheduled_at</code> (ISO 8601, or a local time in the row&rsquo;s{' '}
          <code>time_zone</code> or the workspace&rsquo;s, {workspaceTimeZone}); optional <code>key</code>,{' '}
          <code>thread_group</code> and <code>part</code>, <code>first_comment</code>, <code>template</code> (and its
          variables&rsquo; columns), <code>track_links</code> (yes or no), <code>utm_preset</code> and{' '}
          <code>utm_campaign</code>. Up to 5,000 rows and 5 MB.
        </p>
        <input
          ref={input}
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          aria-describedby="import-file-help"
          disabled={busy}
          className="mt-3 block text-sm"
          onChange={(e) => {
            void choose(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>

      <p role="status" aria-live="polite" className={`text-sm ${error ? 'text-rose-700' : 'text-slate-600'}`}>
        {error ?? (stage.kind === 'previewing' ? `Reading ${stage.file.name}…` : '')}
      </p>

      {(stage.kind === 'preview' || stage.kind === 'importing' || stage.kind === 'done') && (
        <section aria-label="Preview" className="space-y-4">
          <ImportSummary stage={stage} />
          {stage.kind !== 'done' && (
            <Button
              type="button"
              onClick={() => void runImport()}
              disabled={busy || stage.preview.counts.new + stage.preview.counts.alreadyImported === 0}
            >
              {stage.kind === 'importing' ? 'Importing…' : `Import (${stage.preview.posts} new)`}
            </Button>
          )}
          {stage.kind === 'importing' && (
            <div>
              <progress
                aria-label="Import progress"
                value={stage.done}
                max={stage.total}
                className="h-2 w-full overflow-hidden rounded"
              />
              <p className="text-xs text-slate-600">
                {stage.done} of {stage.total} posts
              </p>
            </div>
          )}
          {invalid && (
            <Button type="button" variant="secondary" onClick={downloadErrors}>
              Download errors CSV
            </Button>
          )}
          <ImportRowsTable rows={rows} />
        </section>
      )}
    </div>
  );
}

function ImportSummary({ stage }: { stage: Extract<Stage, { preview: ImportPreview }> }) {
  if (stage.kind === 'done') {
    const counts = countRows(stage.rows);
    return (
      <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
        Imported {stage.file.name}: {counts.new} created, {counts.alreadyImported} already imported,{' '}
        {counts.editedCopies} look like edited copies, {counts.invalid} invalid.
      </p>
    );
  }
  const { counts, fileName, ignoredColumns } = stage.preview;
  return (
    <p className="text-sm text-slate-700" data-testid="import-preview-counts">
      {fileName}: {counts.rows} rows — {counts.new} new, {counts.alreadyImported} already imported,{' '}
      {counts.editedCopies} look like edited copies, {counts.invalid} invalid.
      {ignoredColumns.length > 0 && ` Ignored columns: ${ignoredColumns.join(', ')}.`}
    </p>
  );
}

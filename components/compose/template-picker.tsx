'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { fillTemplate, templateVariables } from '@/lib/templates/variables';
import type { DraftMedia } from './draft-parts';

export type ComposeTemplate = {
  id: string;
  name: string;
  text: string;
  firstComment: string | null;
  accountIds: string[];
  timeOfDay: string | null;
  media: DraftMedia[];
};

export type AppliedTemplate = {
  text: string;
  firstComment?: string;
  accountIds?: string[];
  /** The next occurrence of the template's time of day, as the schedule picker's local date-time. */
  localDateTime?: string;
  media?: DraftMedia[];
};

const pad = (n: number) => String(n).padStart(2, '0');

/** The next `HH:MM` from now in the viewer's zone, as a datetime-local value. */
function nextTimeOfDay(time: string, now = new Date()): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const at = new Date(now);
  at.setHours(h, m, 0, 0);
  if (at.getTime() <= now.getTime() + 60_000) at.setDate(at.getDate() + 1);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(h)}:${pad(m)}`;
}

/**
 * "Start from a template": pick one, fill its `{{variables}}`, apply — the text, first comment, accounts, time and
 * images go into the draft (everything stays editable). Applying with a variable left blank is refused here.
 */
export function TemplatePicker({
  templates,
  onApply,
}: {
  templates: ComposeTemplate[];
  onApply: (t: AppliedTemplate) => void;
}) {
  const [chosenId, setChosenId] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  if (templates.length === 0) return null;
  const chosen = templates.find((t) => t.id === chosenId);
  const variables = chosen ? templateVariables(chosen.text, chosen.firstComment) : [];
  const apply = () => {
    if (!chosen) return;
    const text = fillTemplate(chosen.text, values);
    const comment = chosen.firstComment ? fillTemplate(chosen.firstComment, values) : null;
    const blank = [...new Set([...text.missing, ...(comment?.missing ?? [])])];
    setMissing(blank);
    if (blank.length > 0) return;
    onApply({
      text: text.text,
      ...(comment ? { firstComment: comment.text } : {}),
      ...(chosen.accountIds.length ? { accountIds: chosen.accountIds } : {}),
      ...(chosen.timeOfDay ? { localDateTime: nextTimeOfDay(chosen.timeOfDay) } : {}),
      ...(chosen.media.length ? { media: chosen.media } : {}),
    });
  };
  return (
    <section aria-labelledby="template-heading" className="space-y-3 rounded-md bg-slate-50 p-4 ring-1 ring-slate-200">
      <h2 id="template-heading" className="text-sm font-medium text-slate-900">
        Start from a template
      </h2>
      <Field id="template" label="Template">
        <select
          {...fieldAria('template', {})}
          value={chosenId}
          onChange={(e) => {
            setChosenId(e.target.value);
            setValues({});
            setMissing([]);
          }}
          className={inputClass}
        >
          <option value="">None</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </Field>
      {chosen && (
        <>
          <p className="text-xs whitespace-pre-wrap text-slate-600">{chosen.text}</p>
          {variables.length > 0 && (
            <div className="grid gap-3 sm:grid-cols-2">
              {variables.map((name) => {
                const error = missing.includes(name) ? 'Fill this in' : undefined;
                return (
                  <Field key={name} id={`var-${name}`} label={`{{${name}}}`} error={error}>
                    <input
                      {...fieldAria(`var-${name}`, { error })}
                      value={values[name] ?? ''}
                      onChange={(e) => setValues({ ...values, [name]: e.target.value })}
                      className={inputClass}
                    />
                  </Field>
                );
              })}
            </div>
          )}
          <Button type="button" variant="secondary" onClick={apply}>
            Apply template
          </Button>
        </>
      )}
    </section>
  );
}

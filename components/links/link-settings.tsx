'use client';

import { useActionState, useState } from 'react';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Settings = { utm: boolean; shorten: boolean; shortener: string; shortenerUrl: string; hasSecret: boolean };

const SHORTENER_LABELS: Record<string, string> = {
  semel: 'Semel’s own short links',
  bitly: 'Bitly',
  shlink: 'Shlink',
  yourls: 'YOURLS',
};

/** Settings → Links: UTM tags on, shortening on, and which shortener (an external one's URL and secret). */
export function LinkSettingsForm(props: { action: FormAction; canEdit: boolean; origin: string; settings: Settings }) {
  const [state, formAction, pending] = useActionState(props.action, undefined);
  const [shortener, setShortener] = useState(props.settings.shortener);
  const error = (name: string) => state?.errors?.[name]?.[0];
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <Check
        name="utm"
        checked={props.settings.utm}
        disabled={!props.canEdit}
        label="Add UTM tags to every post’s links"
        help="utm_source = the network, utm_medium and utm_campaign from the post’s preset. Tags a link already has are kept."
      />
      <Check
        name="shorten"
        checked={props.settings.shorten}
        disabled={!props.canEdit}
        label="Shorten links"
        help="Each link becomes one short link per network (and campaign), made once and reused by every post."
      />
      <Field id="shortener" label="Shortener" error={error('shortener')}>
        <select
          {...fieldAria('shortener', { error: error('shortener') })}
          name="shortener"
          value={shortener}
          onChange={(e) => setShortener(e.target.value)}
          disabled={!props.canEdit}
          className={inputClass}
        >
          {Object.entries(SHORTENER_LABELS).map(([id, label]) => (
            <option key={id} value={id}>
              {id === 'semel' ? `${label} (${props.origin}/l/…)` : label}
            </option>
          ))}
        </select>
      </Field>
      {shortener !== 'semel' && (
        <>
          <Field
            id="shortenerUrl"
            label={shortener === 'bitly' ? 'API URL (optional)' : 'Server URL'}
            error={error('shortenerUrl')}
          >
            <input
              {...fieldAria('shortenerUrl', { error: error('shortenerUrl') })}
              name="shortenerUrl"
              type="url"
              defaultValue={props.settings.shortenerUrl}
              placeholder={shortener === 'bitly' ? 'https://api-ssl.bitly.com' : 'https://s.example.com'}
              disabled={!props.canEdit}
              className={inputClass}
            />
          </Field>
          <Field
            id="shortenerSecret"
            label={{ bitly: 'Access token', shlink: 'API key', yourls: 'Signature token' }[shortener] ?? 'Secret'}
            description={
              props.settings.hasSecret
                ? 'Stored, sealed for this shortener and URL. Leave blank to keep it; another shortener or URL needs it again.'
                : undefined
            }
            error={error('shortenerSecret')}
          >
            <input
              {...fieldAria('shortenerSecret', {
                error: error('shortenerSecret'),
                description: props.settings.hasSecret,
              })}
              name="shortenerSecret"
              type="password"
              autoComplete="off"
              disabled={!props.canEdit}
              className={inputClass}
            />
          </Field>
        </>
      )}
      <SubmitButton pending={pending} pendingLabel="Saving…" disabled={!props.canEdit}>
        Save link settings
      </SubmitButton>
      {state ? <FormStatus state={state} /> : null}
    </form>
  );
}

function Check(props: { name: string; checked: boolean; disabled: boolean; label: string; help: string }) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={props.name}
        name={props.name}
        type="checkbox"
        defaultChecked={props.checked}
        disabled={props.disabled}
        aria-describedby={`${props.name}-help`}
        className="mt-1 h-4 w-4"
      />
      <div>
        <label htmlFor={props.name} className="text-sm font-medium text-slate-900">
          {props.label}
        </label>
        <p id={`${props.name}-help`} className="text-sm text-slate-600">
          {props.help}
        </p>
      </div>
    </div>
  );
}

export function UtmPresetForm({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = (name: string) => state?.errors?.[name]?.[0];
  return (
    <form action={formAction} className="grid gap-3 sm:grid-cols-4 sm:items-end" noValidate>
      <Field id="preset-name" label="Name" error={error('name')}>
        <input {...fieldAria('preset-name', { error: error('name') })} name="name" className={inputClass} />
      </Field>
      <Field id="preset-medium" label="utm_medium" error={error('medium')}>
        <input
          {...fieldAria('preset-medium', { error: error('medium') })}
          name="medium"
          defaultValue="social"
          className={inputClass}
        />
      </Field>
      <Field id="preset-campaign" label="utm_campaign" error={error('campaign')}>
        <input {...fieldAria('preset-campaign', { error: error('campaign') })} name="campaign" className={inputClass} />
      </Field>
      <div className="flex items-center gap-3">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="isDefault" className="h-4 w-4" /> Default
        </label>
        <SubmitButton pending={pending} pendingLabel="Adding…">
          Add preset
        </SubmitButton>
      </div>
      {state ? <FormStatus state={state} className="text-sm sm:col-span-4" /> : null}
    </form>
  );
}

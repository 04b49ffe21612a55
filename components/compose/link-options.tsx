'use client';

import { Field, fieldAria, inputClass } from '@/components/ui/field';

export type LinkPreset = { id: string; name: string; isDefault: boolean };
export type DraftLinks = { track: boolean; presetId: string; campaign: string };

/**
 * The post's link tracking, where the workspace tracks links (Settings → Links): on or off for this post, its UTM
 * preset and its own campaign. Applied per network when the post is saved (utm_source = the network).
 */
export function LinkOptions(props: {
  presets: LinkPreset[];
  value: DraftLinks;
  error?: string;
  onChange: (value: DraftLinks) => void;
}) {
  const { value, onChange } = props;
  return (
    <fieldset className="space-y-3 rounded-md p-4 ring-1 ring-slate-200">
      <legend className="px-1 text-sm font-medium text-slate-900">Links</legend>
      <input type="hidden" name="linksTrack" value={value.track ? 'on' : 'off'} />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={value.track}
          onChange={(e) => onChange({ ...value, track: e.target.checked })}
          className="h-4 w-4"
        />
        Track this post’s links (UTM tags and short links per network)
      </label>
      {value.track && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="utmPresetId" label="UTM preset" error={props.error}>
            <select
              {...fieldAria('utmPresetId', { error: props.error })}
              name="utmPresetId"
              value={value.presetId}
              onChange={(e) => onChange({ ...value, presetId: e.target.value })}
              className={inputClass}
            >
              <option value="">Workspace default</option>
              {props.presets.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {p.isDefault ? ' (default)' : ''}
                </option>
              ))}
            </select>
          </Field>
          <Field id="utmCampaign" label="Campaign (optional)">
            <input
              {...fieldAria('utmCampaign', {})}
              name="utmCampaign"
              value={value.campaign}
              onChange={(e) => onChange({ ...value, campaign: e.target.value })}
              placeholder="from the preset"
              className={inputClass}
            />
          </Field>
        </div>
      )}
    </fieldset>
  );
}

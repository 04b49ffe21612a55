import { TextField } from '@/components/ui/field';
import type { ComposeDraft } from './use-compose-draft';

type Props = {
  draft: Pick<ComposeDraft, 'when' | 'localDateTime'>;
  timeZone: string;
  error?: string;
  update: (patch: Partial<ComposeDraft>) => void;
};

/** Now, or a local date and time in the browser's zone (the server converts it with the zone sent beside it). */
export function SchedulePicker({ draft, timeZone, error, update }: Props) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-900">When</legend>
      <div className="mt-2 flex gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="when"
            value="now"
            checked={draft.when === 'now'}
            onChange={() => update({ when: 'now' })}
          />
          Post now
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="when"
            value="later"
            checked={draft.when === 'later'}
            onChange={() => update({ when: 'later' })}
          />
          Schedule
        </label>
      </div>
      {draft.when === 'later' && (
        <TextField
          id="localDateTime"
          name="localDateTime"
          type="datetime-local"
          label={`Date and time (${timeZone})`}
          fieldClassName="mt-3"
          className="max-w-xs"
          value={draft.localDateTime}
          error={error}
          onChange={(e) => update({ localDateTime: e.target.value })}
        />
      )}
    </fieldset>
  );
}

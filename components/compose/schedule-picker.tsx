import { FieldError, TextField } from '@/components/ui/field';
import type { ComposeDraft } from './use-compose-draft';

type Props = {
  draft: Pick<ComposeDraft, 'when' | 'localDateTime'>;
  timeZone: string;
  error?: string;
  slotError?: string;
  update: (patch: Partial<ComposeDraft>) => void;
};

/**
 * Now, a local date and time in the browser's zone (the server converts it with the zone sent beside it), or
 * the queue: the next free posting slot of the chosen accounts.
 */
export function SchedulePicker({ draft, timeZone, error, slotError, update }: Props) {
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
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="when"
            value="queue"
            checked={draft.when === 'queue'}
            onChange={() => update({ when: 'queue' })}
          />
          Add to queue
        </label>
      </div>
      {draft.when === 'queue' && (
        <p id="slot-description" className="mt-2 text-xs text-slate-600">
          The next free posting slot of the chosen accounts (Settings → Posting slots); with several accounts, the first
          slot free in all of them. No two posts ever share a slot.
        </p>
      )}
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
      <FieldError id="slot" error={slotError} />
    </fieldset>
  );
}

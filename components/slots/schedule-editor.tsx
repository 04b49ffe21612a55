'use client';

import { useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { LocalTime } from '@/components/ui/local-time';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import { sortSlots, WEEKDAY_LABEL, WEEKDAYS, type Slot, type Weekday } from '@/lib/slots/schedule';

type Props = {
  account: { id: string; handle: string; provider: ProviderName; displayName: string | null };
  schedule: { timeZone: string; slots: Slot[]; nextFreeSlots: string[] };
  zones: string[];
  action: FormAction<{ nextFreeSlots: string[] }>;
};

/** One account's weekly posting slots: a time zone and wall-clock times per weekday, saved as a whole. */
export function ScheduleEditor({ account, schedule, zones, action }: Props) {
  const [state, formAction, pending] = useActionState<ActionState<{ nextFreeSlots: string[] }> | undefined, FormData>(
    action,
    undefined,
  );
  const [slots, setSlots] = useState<Slot[]>(schedule.slots);
  const [everyDay, setEveryDay] = useState('09:00');
  const id = `slots-${account.id}`;
  const error = (key: string) => state?.errors?.[key]?.[0];
  const next = state?.ok ? state.data!.nextFreeSlots : schedule.nextFreeSlots;

  const change = (i: number, patch: Partial<Slot>) => setSlots(slots.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const addEveryDay = () => {
    const have = new Set(slots.map((s) => `${s.weekday} ${s.time}`));
    setSlots(
      sortSlots([
        ...slots,
        ...WEEKDAYS.filter((w) => !have.has(`${w} ${everyDay}`)).map((weekday) => ({ weekday, time: everyDay })),
      ]),
    );
  };

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Posting slots for {account.handle}{' '}
        <span className="font-normal text-slate-500">· {PROVIDER_LABEL[account.provider]}</span>
      </h2>
      <form action={formAction} className="mt-4 space-y-4" noValidate>
        <input type="hidden" name="accountId" value={account.id} />
        <input type="hidden" name="slots" value={JSON.stringify(slots)} />
        <label className="block max-w-xs text-sm font-medium text-slate-900">
          Time zone
          <select
            name="timeZone"
            defaultValue={schedule.timeZone}
            className={inputClass}
            aria-invalid={Boolean(error('timeZone'))}
          >
            {[...new Set([schedule.timeZone, ...zones])].map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        <FieldError id={`${id}-timeZone`} error={error('timeZone')} />
        {slots.length === 0 ? (
          <p className="text-sm text-slate-600">No slots yet: “Add to queue” cannot use this account.</p>
        ) : (
          <ul aria-label={`Slots of ${account.handle}`} className="space-y-2">
            {slots.map((slot, i) => (
              <li key={i} className="flex flex-wrap items-end gap-2">
                <label className="text-sm">
                  <span className="sr-only">Day of slot {i + 1}</span>
                  <select
                    value={slot.weekday}
                    onChange={(e) => change(i, { weekday: e.target.value as Weekday })}
                    className={`${inputClass} w-40!`}
                  >
                    {WEEKDAYS.map((w) => (
                      <option key={w} value={w}>
                        {WEEKDAY_LABEL[w]}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="text-sm">
                  <span className="sr-only">Time of slot {i + 1}</span>
                  <input
                    type="time"
                    value={slot.time}
                    onChange={(e) => change(i, { time: e.target.value })}
                    aria-invalid={Boolean(error(`slots.${i}.time`) ?? error(`slots.${i}`))}
                    className={`${inputClass} w-32!`}
                  />
                </label>
                <Button type="button" variant="secondary" onClick={() => setSlots(slots.filter((_, j) => j !== i))}>
                  Remove<span className="sr-only"> slot {i + 1}</span>
                </Button>
                {(error(`slots.${i}.time`) ?? error(`slots.${i}`)) && (
                  <p className="w-full text-sm text-rose-700">{error(`slots.${i}.time`) ?? error(`slots.${i}`)}</p>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <Button
            type="button"
            variant="secondary"
            onClick={() => setSlots([...slots, { weekday: 'mon', time: everyDay }])}
          >
            Add a slot
          </Button>
          <label className="text-sm font-medium text-slate-900">
            Every day at
            <input
              type="time"
              value={everyDay}
              onChange={(e) => setEveryDay(e.target.value)}
              className={`${inputClass} w-32!`}
            />
          </label>
          <Button type="button" variant="secondary" onClick={addEveryDay}>
            Add to every day
          </Button>
        </div>
        <div className="flex items-center gap-3">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save slots
          </SubmitButton>
          <FormStatus state={state} />
        </div>
      </form>
      {next.length > 0 && (
        <div className="mt-4 text-sm text-slate-600">
          <p className="font-medium text-slate-900">Next free slots</p>
          <ol aria-label={`Next free slots of ${account.handle}`} className="mt-1 list-inside list-decimal">
            {next.map((at) => (
              <li key={at}>
                <LocalTime iso={at} />
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

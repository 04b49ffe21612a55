'use client';

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { zonedLocalInput } from '@/lib/calendar/grid';
import { Button } from '@/components/ui/button';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';
import type { ComposeResult } from '@/lib/posts/compose-form';
import { AccountsPicker, type ComposeAccount } from './accounts-picker';
import { ComposeOutcome } from './compose-outcome';
import { KindPicker } from './kind-picker';
import type { ComposeSnippet } from './snippets';
import { TemplatePicker, type ComposeTemplate } from './template-picker';
import { LinkOptions, type LinkPreset } from './link-options';
import { FormatPicker } from './format-picker';
import { OptionsPicker } from './options-picker';
import { MediaPicker } from './media-picker';
import { SchedulePicker } from './schedule-picker';
import { NetworkTabs } from './network-tabs';
import { partMediaIdsValue, ThreadParts } from './thread-parts';
import { useComposeDraft } from './use-compose-draft';

type Props = {
  workspaceId: string;
  accounts: ComposeAccount[];
  action: FormAction<ComposeResult>;
  /** An instant to schedule at (the calendar's "New post" on a day or slot). */
  prefillAt?: string;
  /** The workspace asks for alt text on every image (Settings → General). */
  requireAltText: boolean;
  /** The workspace tracks links (Settings → Links): its UTM presets; absent: it tracks none. */
  linkPresets?: LinkPreset[];
  /** The workspace's snippets (`/` in the text) and post templates. */
  snippets?: ComposeSnippet[];
  templates?: ComposeTemplate[];
};

export function ComposeForm(props: Props) {
  const {
    workspaceId,
    accounts,
    action,
    prefillAt,
    requireAltText,
    linkPresets,
    snippets = [],
    templates = [],
  } = props;
  const { draft, update, startNew } = useComposeDraft(`semel:compose:${workspaceId}`);
  const [state, setState] = useState<ActionState<ComposeResult> | undefined>();
  const [networkError, setNetworkError] = useState(false);
  // Which image pickers are still adding images (`post`, or a thread part's id): the post waits for all of them.
  const [pendingPickers, setPendingPickers] = useState<Record<string, boolean>>({});
  const uploadsPending = Object.values(pendingPickers).some(Boolean);
  const setPickerPending = useCallback(
    (picker: string, pending: boolean) =>
      setPendingPickers((current) => (current[picker] === pending ? current : { ...current, [picker]: pending })),
    [],
  );
  const setPostPending = useCallback((pending: boolean) => setPickerPending('post', pending), [setPickerPending]);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false); // a second click before React re-renders the disabled button is ignored
  const [timeZone] = useState(() =>
    typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC',
  );

  // The calendar's time goes into the draft once it is loaded; the draft's key is left as it is.
  const prefilledFor = useRef<string | undefined>(undefined);
  const draftLoaded = draft !== null;
  useEffect(() => {
    if (!prefillAt || !draftLoaded || prefilledFor.current === prefillAt) return;
    prefilledFor.current = prefillAt;
    update({ when: 'later', localDateTime: zonedLocalInput(prefillAt, timeZone) });
  }, [prefillAt, draftLoaded, timeZone, update]);

  if (!draft) return <p className="text-sm text-slate-600">Loading the composer…</p>;

  const fieldError = (name: string) => state?.errors?.[name]?.[0];
  const selected = accounts.filter((a) => draft.accountIds.includes(a.id));
  // Only the accounts still ticked keep their own text; a thread has none (its parts are published as written).
  const ownTexts =
    draft.kind === 'thread'
      ? {}
      : Object.fromEntries(Object.entries(draft.variants).filter(([id]) => draft.accountIds.includes(id)));
  // The same for formats: only a post takes one, and only for the accounts still ticked.
  const chosenFormats =
    draft.kind === 'post'
      ? Object.fromEntries(Object.entries(draft.formats ?? {}).filter(([id]) => draft.accountIds.includes(id)))
      : {};
  // A post's first comment; the accounts still ticked keep their own.
  const ownFirstComments =
    draft.kind === 'post'
      ? Object.fromEntries(Object.entries(draft.firstComments ?? {}).filter(([id]) => draft.accountIds.includes(id)))
      : {};
  const chosenOptions = Object.fromEntries(
    Object.entries(draft.options ?? {}).filter(([id]) => draft.accountIds.includes(id)),
  );

  async function submit(form: HTMLFormElement, options: { confirmDuplicate?: boolean; intent?: 'draft' } = {}) {
    if (inFlight.current) return;
    if (uploadsPending) {
      setState({ ok: false, message: 'Finish or remove the images being added first.', errors: {} });
      return;
    }
    inFlight.current = true;
    setPending(true);
    setNetworkError(false);
    const data = new FormData(form);
    if (options.confirmDuplicate) data.set('confirmDuplicate', '1');
    if (options.intent) data.set('intent', options.intent);
    try {
      const next = await action(undefined, data);
      setState(next);
      // Only after the success is on screen does the form get a new key for the next intent.
      if (next.ok) startNew();
    } catch {
      setNetworkError(true);
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  return (
    <form
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        void submit(e.currentTarget);
      }}
      className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
      noValidate
      aria-busy={pending}
    >
      <input type="hidden" name="idempotencyKey" value={draft.key} />
      <input type="hidden" name="timeZone" value={timeZone} />
      <input type="hidden" name="variants" value={JSON.stringify(ownTexts)} />
      <input type="hidden" name="formats" value={JSON.stringify(chosenFormats)} />
      <input type="hidden" name="options" value={JSON.stringify(chosenOptions)} />
      <input type="hidden" name="firstComment" value={draft.kind === 'post' ? (draft.firstComment ?? '') : ''} />
      <input type="hidden" name="firstComments" value={JSON.stringify(ownFirstComments)} />
      <ComposeOutcome
        state={state}
        networkError={networkError}
        pending={pending}
        onConfirmDuplicate={(form) => void submit(form, { confirmDuplicate: true })}
        onStartNew={() => {
          startNew();
          setState(undefined);
        }}
      />
      <TemplatePicker
        templates={templates}
        onApply={(t) =>
          update({
            kind: 'post',
            text: t.text,
            ...(t.firstComment !== undefined ? { firstComment: t.firstComment } : {}),
            ...(t.accountIds ? { accountIds: t.accountIds.filter((id) => accounts.some((a) => a.id === id)) } : {}),
            ...(t.localDateTime ? { when: 'later' as const, localDateTime: t.localDateTime } : {}),
            ...(t.media ? { media: t.media } : {}),
          })
        }
      />
      <AccountsPicker
        accounts={accounts}
        selectedIds={draft.accountIds}
        error={fieldError('accountIds')}
        onChange={(accountIds) => update({ accountIds })}
      />
      <KindPicker
        draft={draft}
        errors={{ inReplyTo: fieldError('inReplyTo'), recipient: fieldError('recipient') }}
        update={update}
        uploadsPending={uploadsPending}
      />
      {draft.kind === 'thread' ? (
        <>
          <input type="hidden" name="partMediaIds" value={partMediaIdsValue(draft.parts)} />
          <ThreadParts
            parts={draft.parts}
            providers={[...new Set(selected.map((a) => a.provider))]}
            errors={state?.errors}
            onChange={(parts) => update({ parts })}
            media={{ requireAltText, selected, onPendingChange: setPickerPending }}
          />
        </>
      ) : (
        <NetworkTabs
          selected={selected}
          text={draft.text}
          variants={ownTexts}
          errorFor={fieldError}
          onText={(text) => update({ text })}
          snippets={snippets}
          onVariant={(accountId, text) => {
            const variants = { ...draft.variants };
            if (text === undefined) delete variants[accountId];
            else variants[accountId] = text;
            update({ variants });
          }}
          firstComment={
            draft.kind === 'post'
              ? {
                  text: draft.firstComment ?? '',
                  own: ownFirstComments,
                  formats: chosenFormats,
                  errorFor: fieldError,
                  onText: (firstComment) => update({ firstComment }),
                  onOwn: (accountId, comment) => {
                    const firstComments = { ...draft.firstComments };
                    if (comment === undefined) delete firstComments[accountId];
                    else firstComments[accountId] = comment;
                    update({ firstComments });
                  },
                }
              : undefined
          }
        />
      )}
      {Object.keys(state?.errors ?? {}).some((k) => k.startsWith('variants.')) && (
        <p className="text-sm text-rose-700">An account’s own text needs a fix: see the tabs marked in red.</p>
      )}
      {/* A single post's images; a thread's are on its parts (switching moves them to and from part 1). */}
      {draft.kind !== 'thread' && (
        <>
          {draft.media.map((m) => (
            <input key={m.id} type="hidden" name="mediaIds" value={m.id} />
          ))}
          <MediaPicker
            media={draft.media}
            onChange={(media) => update({ media })}
            onPendingChange={setPostPending}
            requireAltText={requireAltText}
            selected={selected}
            formats={chosenFormats}
            error={fieldError('mediaIds')}
            videos
          />
          {draft.kind === 'post' && (
            <FormatPicker
              selected={selected}
              formats={chosenFormats}
              errorFor={fieldError}
              onChange={(accountId, format) => {
                const formats = { ...draft.formats };
                if (format === undefined) delete formats[accountId];
                else formats[accountId] = format;
                update({ formats });
              }}
            />
          )}
          <OptionsPicker
            selected={selected}
            options={chosenOptions}
            errorFor={fieldError}
            onChange={(accountId, next) => update({ options: { ...draft.options, [accountId]: next } })}
          />
        </>
      )}
      {linkPresets && (
        <LinkOptions
          presets={linkPresets}
          value={draft.links ?? { track: true, presetId: '', campaign: '' }}
          error={fieldError('links.presetId')}
          onChange={(links) => update({ links })}
        />
      )}
      <SchedulePicker
        draft={draft}
        timeZone={timeZone}
        error={fieldError('localDateTime')}
        slotError={fieldError('slot')}
        update={update}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Scheduling…">
          {draft.when === 'queue' ? 'Add to queue' : 'Schedule'}
        </SubmitButton>
        <Button
          type="button"
          variant="secondary"
          disabled={pending}
          onClick={(e) => void submit(e.currentTarget.form!, { intent: 'draft' })}
        >
          Save draft
        </Button>
        <span className="text-xs text-slate-500">
          Safe to retry: this post is sent with its own key, so it can only be scheduled once. A draft is never
          published until you schedule it.
        </span>
      </div>
    </form>
  );
}

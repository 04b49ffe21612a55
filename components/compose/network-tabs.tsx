'use client';

import { useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ComposeAccount } from './accounts-picker';
import { AccountFirstComment, SharedFirstComment, type FirstCommentProps } from './first-comment';
import { NetworkPreview } from './network-preview';
import type { ComposeSnippet } from './snippets';
import { TextWithCounts } from './text-with-counts';

type Props = {
  selected: ComposeAccount[];
  text: string;
  /** Own texts by account id; an account without one publishes `text`. */
  variants: Record<string, string>;
  errorFor: (field: string) => string | undefined;
  onText: (text: string) => void;
  onVariant: (accountId: string, text: string | undefined) => void;
  /** A post's first comment (kind `post` only), shared and per account, under each panel's text. */
  firstComment?: FirstCommentProps;
  /** The workspace's snippets, inserted into the text with `/` or the picker. */
  snippets?: ComposeSnippet[];
};

/**
 * "All" and one tab per chosen account: the shared text, or an account's own text, each with its live count
 * against that network's limit and a preview of how the network shows it. Only the active panel is rendered.
 */
export function NetworkTabs({ selected, text, variants, errorFor, onText, onVariant, firstComment, snippets }: Props) {
  const [active, setActive] = useState('all');
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  const current = selected.some((a) => a.id === active) ? active : 'all';
  const ids = ['all', ...selected.map((a) => a.id)];

  const register = (id: string, el: HTMLButtonElement | null) => {
    tabs.current[id] = el;
  };
  const focusTab = (id: string) => {
    setActive(id);
    tabs.current[id]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const i = ids.indexOf(current);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: ids.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    focusTab(ids[(next + ids.length) % ids.length]!);
  };

  const shared = selected.filter((a) => variants[a.id] === undefined);
  const account = selected.find((a) => a.id === current);
  return (
    <div>
      {selected.length > 0 && (
        <div
          role="tablist"
          aria-label="Versions per account"
          className="mb-2 flex flex-wrap gap-1"
          onKeyDown={onKeyDown}
        >
          <Tab id="all" current={current} onSelect={setActive} register={register}>
            All
          </Tab>
          {selected.map((a) => {
            const own = variants[a.id];
            const { countText, textLimit } = PROVIDER_META[a.provider];
            const count = countText(own ?? text);
            const invalid = count > textLimit || Boolean(errorFor(`variants.${a.id}.text`));
            return (
              <Tab key={a.id} id={a.id} current={current} onSelect={setActive} register={register} invalid={invalid}>
                {a.handle}
                <span className="ml-1 text-xs font-normal opacity-75">
                  {count}/{textLimit}
                  {own !== undefined && ' · own version'}
                </span>
                {invalid && <span className="sr-only"> (needs a fix)</span>}
              </Tab>
            );
          })}
        </div>
      )}
      <div
        role={selected.length > 0 ? 'tabpanel' : undefined}
        id={`text-panel-${current}`}
        aria-labelledby={selected.length > 0 ? `text-tab-${current}` : undefined}
      >
        {!account ? (
          <div className="space-y-4">
            <TextWithCounts
              text={text}
              selected={shared}
              error={errorFor('text')}
              onChange={onText}
              snippets={snippets}
            />
            {firstComment && <SharedFirstComment {...firstComment} selected={selected} />}
          </div>
        ) : variants[account.id] === undefined ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-600">
              {account.handle} gets the text from <strong>All</strong>.{' '}
              <Button type="button" variant="secondary" onClick={() => onVariant(account.id, text)}>
                Write a different text for {account.handle}
              </Button>
            </p>
            <NetworkPreview account={account} text={text} />
            {firstComment && <AccountFirstComment {...firstComment} account={account} />}
          </div>
        ) : (
          <div className="space-y-3">
            <VariantField
              account={account}
              text={variants[account.id]!}
              error={errorFor(`variants.${account.id}.text`)}
              onChange={(t) => onVariant(account.id, t)}
            />
            <Button type="button" variant="secondary" onClick={() => onVariant(account.id, undefined)}>
              Use the text from All for {account.handle}
            </Button>
            <NetworkPreview account={account} text={variants[account.id]!} />
            {firstComment && <AccountFirstComment {...firstComment} account={account} />}
          </div>
        )}
      </div>
    </div>
  );
}

function Tab({
  id,
  current,
  onSelect,
  register,
  invalid,
  children,
}: {
  id: string;
  current: string;
  onSelect: (id: string) => void;
  register: (id: string, el: HTMLButtonElement | null) => void;
  invalid?: boolean;
  children: React.ReactNode;
}) {
  const selected = id === current;
  return (
    <button
      ref={(el) => register(id, el)}
      type="button"
      role="tab"
      id={`text-tab-${id}`}
      aria-selected={selected}
      aria-controls={`text-panel-${id}`}
      tabIndex={selected ? 0 : -1}
      onClick={() => onSelect(id)}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ${
        selected
          ? 'bg-indigo-600 text-white ring-indigo-600'
          : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
      } ${invalid && !selected ? 'text-rose-700 ring-rose-400' : ''}`}
    >
      {children}
    </button>
  );
}

function VariantField({
  account,
  text,
  error,
  onChange,
}: {
  account: ComposeAccount;
  text: string;
  error?: string;
  onChange: (text: string) => void;
}) {
  const id = `variant-${account.id}`;
  const { countText, textLimit, label } = PROVIDER_META[account.provider];
  const count = countText(text);
  return (
    <Field id={id} label={`Own text for ${account.handle} (${label})`} error={error}>
      <textarea
        {...fieldAria(id, { error, extra: [`${id}-count`] })}
        rows={5}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
      />
      <p id={`${id}-count`} className="mt-1 text-xs text-slate-600" aria-live="polite">
        <span className={count > textLimit ? 'font-semibold text-rose-700' : ''}>
          {count}/{textLimit} {label}
        </span>
      </p>
    </Field>
  );
}

'use client';

import { Button } from '@/components/ui/button';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { firstCommentNoun, takesFirstComment } from '@/lib/posts/first-comment';
import type { ComposeAccount } from './accounts-picker';

export type FirstCommentProps = {
  /** The post's first comment ('' for none). */
  text: string;
  /** Own first comments by account id; an account without one publishes `text`. */
  own: Record<string, string>;
  /** Each account's chosen format (an Instagram story takes no comment). */
  formats: Record<string, string>;
  errorFor: (field: string) => string | undefined;
  onText: (text: string) => void;
  onOwn: (accountId: string, text: string | undefined) => void;
};

/** The post's first comment ("All" tab): which chosen accounts publish it, and which go without one. */
export function SharedFirstComment({ selected, ...props }: FirstCommentProps & { selected: ComposeAccount[] }) {
  const taking = selected.filter((a) => takesFirstComment(a.provider, props.formats[a.id]));
  const without = selected.filter((a) => !takesFirstComment(a.provider, props.formats[a.id]));
  return (
    <div className="space-y-1">
      <CommentField
        id="firstComment"
        label="First comment (optional)"
        text={props.text}
        error={props.errorFor('firstComment')}
        onChange={props.onText}
        accounts={taking}
      />
      <p className="text-xs text-slate-600">
        Published once the post is confirmed sent on each account, never under a post that failed or is in review
        {taking.length > 0 && (
          <>
            {' '}
            — as{' '}
            {taking
              .map((a) => `${a.handle}’s ${firstCommentNoun(a.provider) === 'reply' ? 'own reply' : 'comment'}`)
              .join(', ')}
          </>
        )}
        .
        {without.length > 0 && (
          <> {without.map((a) => a.handle).join(', ')} publish without it (no first comment there).</>
        )}
      </p>
    </div>
  );
}

/** One account's first comment (its tab): the post's, or its own. */
export function AccountFirstComment({ account, ...props }: FirstCommentProps & { account: ComposeAccount }) {
  const label = PROVIDER_META[account.provider].label;
  if (!takesFirstComment(account.provider, props.formats[account.id]))
    return <p className="text-sm text-slate-600">{label} publishes no first comment here.</p>;
  const own = props.own[account.id];
  if (own === undefined)
    return (
      <p className="text-sm text-slate-600">
        First comment:{' '}
        {props.text.trim() ? (
          <>
            the one from <strong>All</strong>.
          </>
        ) : (
          'none.'
        )}{' '}
        <Button type="button" variant="secondary" onClick={() => props.onOwn(account.id, props.text)}>
          Write a different first comment for {account.handle}
        </Button>
      </p>
    );
  return (
    <div className="space-y-2">
      <CommentField
        id={`first-comment-${account.id}`}
        label={`Own first comment for ${account.handle} (${label})`}
        text={own}
        error={props.errorFor(`variants.${account.id}.firstComment`)}
        onChange={(t) => props.onOwn(account.id, t)}
        accounts={[account]}
      />
      <Button type="button" variant="secondary" onClick={() => props.onOwn(account.id, undefined)}>
        Use the first comment from All for {account.handle}
      </Button>
    </div>
  );
}

function CommentField(props: {
  id: string;
  label: string;
  text: string;
  error?: string;
  onChange: (text: string) => void;
  accounts: ComposeAccount[];
}) {
  const providers = [...new Set(props.accounts.map((a) => a.provider))];
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <textarea
        {...fieldAria(props.id, { error: props.error, extra: [`${props.id}-count`] })}
        rows={2}
        value={props.text}
        onChange={(e) => props.onChange(e.target.value)}
        className={inputClass}
      />
      <p id={`${props.id}-count`} className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600" aria-live="polite">
        {providers.map((p) => {
          const { countText, textLimit, replies, label } = PROVIDER_META[p];
          const limit = replies?.textLimit ?? textLimit;
          const count = countText(props.text);
          return (
            <span key={p} className={count > limit ? 'font-semibold text-rose-700' : ''}>
              {count}/{limit} {label}
            </span>
          );
        })}
      </p>
    </Field>
  );
}

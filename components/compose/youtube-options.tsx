'use client';

import { FieldError, fieldAria, inputClass } from '@/components/ui/field';
import { YOUTUBE_PRIVACY } from '@/lib/providers/youtube/options';
import type { ComposeAccount } from './accounts-picker';

const PRIVACY_LABELS: Record<(typeof YOUTUBE_PRIVACY)[number], string> = {
  public: 'Public',
  unlisted: 'Unlisted (anyone with the link)',
  private: 'Private',
};

type Props = {
  account: ComposeAccount;
  options: Record<string, unknown>;
  errorFor: (field: string) => string | undefined;
  onChange: (options: Record<string, unknown>) => void;
};

/** An ISO time as a datetime-local input shows it (local time, to the minute), and back. */
const toLocalInput = (iso: unknown) => {
  if (typeof iso !== 'string') return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/**
 * YouTube's settings for one account (lib/providers/youtube/options.ts): each has a default, shown as such — the
 * title is the post's first line, the video public — and a release time keeps it private until then. The server
 * checks them all again; an empty field is left out, so its default applies.
 */
export function YoutubeOptions({ account, options, errorFor, onChange }: Props) {
  const id = `options-${account.id}`;
  const field = (name: string) => errorFor(`options.${account.id}.${name}`);
  const set = (name: string, value: unknown) => {
    const next = { ...options, [name]: value };
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) delete next[name];
    onChange(next);
  };
  const scheduled = typeof options.publish_at === 'string';
  const tags = Array.isArray(options.tags) ? (options.tags as string[]) : [];

  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" aria-describedby={`${id}-error`}>
      <legend className="px-1 text-sm font-medium text-slate-800">YouTube settings for {account.handle}</legend>
      <div>
        <label htmlFor={`${id}-title`} className="text-sm text-slate-700">
          Title{' '}
          <span className="text-slate-500">(optional: the post’s first line otherwise; up to 100 characters)</span>
        </label>
        <input
          {...fieldAria(`${id}-title`, { error: field('title') })}
          className={inputClass}
          maxLength={100}
          value={typeof options.title === 'string' ? options.title : ''}
          onChange={(e) => set('title', e.currentTarget.value)}
        />
        <FieldError id={`${id}-title`} error={field('title')} />
      </div>
      <fieldset aria-describedby={`${id}-privacy-error`}>
        <legend className="text-sm text-slate-700">Who can watch it</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {YOUTUBE_PRIVACY.map((privacy) => (
            <label key={privacy} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-privacy`}
                value={privacy}
                disabled={scheduled && privacy !== 'private'}
                checked={scheduled ? privacy === 'private' : (options.privacy_status ?? 'public') === privacy}
                onChange={() => set('privacy_status', privacy === 'public' ? undefined : privacy)}
              />
              {PRIVACY_LABELS[privacy]}
            </label>
          ))}
        </div>
        <FieldError id={`${id}-privacy`} error={field('privacy_status')} />
      </fieldset>
      <div>
        <label htmlFor={`${id}-tags`} className="text-sm text-slate-700">
          Tags <span className="text-slate-500">(optional, separated by commas; 500 characters in all)</span>
        </label>
        <input
          {...fieldAria(`${id}-tags`, { error: field('tags') })}
          className={inputClass}
          defaultValue={tags.join(', ')}
          onBlur={(e) =>
            set(
              'tags',
              e.currentTarget.value
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            )
          }
        />
        <FieldError id={`${id}-tags`} error={field('tags')} />
      </div>
      <div>
        <label htmlFor={`${id}-release`} className="text-sm text-slate-700">
          Release at <span className="text-slate-500">(optional: private until then; at once otherwise)</span>
        </label>
        <input
          {...fieldAria(`${id}-release`, { error: field('publish_at') })}
          type="datetime-local"
          className={inputClass}
          value={toLocalInput(options.publish_at)}
          onChange={(e) => {
            const value = e.currentTarget.value;
            const next = { ...options };
            delete next.privacy_status;
            if (value) next.publish_at = new Date(value).toISOString();
            else delete next.publish_at;
            onChange(next);
          }}
        />
        <FieldError id={`${id}-release`} error={field('publish_at')} />
      </div>
      <FieldError id={id} error={errorFor(`options.${account.id}`)} />
    </fieldset>
  );
}

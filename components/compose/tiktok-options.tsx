'use client';

import { useQuery } from '@tanstack/react-query';
import { FieldError } from '@/components/ui/field';
import type { PostOptionsRead } from '@/lib/reads/post-options';
import type { TiktokOptionsInfo } from '@/lib/providers/tiktok/options';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls } from '@/lib/query/keys';
import type { ComposeAccount } from './accounts-picker';

const LEVEL_LABELS: Record<string, string> = {
  PUBLIC_TO_EVERYONE: 'Everyone',
  MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)',
  FOLLOWER_OF_CREATOR: 'Followers',
  SELF_ONLY: 'Only me',
};
const INTERACTIONS = [
  { key: 'disable_comment', label: 'Allow comments', off: 'commentDisabled' },
  { key: 'disable_duet', label: 'Allow Duet', off: 'duetDisabled' },
  { key: 'disable_stitch', label: 'Allow Stitch', off: 'stitchDisabled' },
] as const;

type Props = {
  account: ComposeAccount;
  options: Record<string, unknown>;
  errorFor: (field: string) => string | undefined;
  onChange: (options: Record<string, unknown>) => void;
};

/**
 * TikTok's settings for one account, as TikTok's content sharing guidelines ask: what the creator allows now is read
 * first (creator_info, through our route), only those privacy levels are offered and none is preselected, and every
 * interaction starts off; one the creator turned off cannot be turned on. The server checks it all again.
 */
export function TiktokOptions({ account, options, errorFor, onChange }: Props) {
  const { data, isPending, isError, refetch } = useQuery({
    queryKey: queryKeys.postOptions(account.id),
    queryFn: () => getJson<PostOptionsRead>(readUrls.postOptions(account.id)),
    staleTime: 60_000,
  });
  const id = `options-${account.id}`;
  const inbox = options.post_mode === 'inbox';
  const info = data?.info as TiktokOptionsInfo | null | undefined;
  // Every interaction is sent explicitly: unticked means off (TikTok: none is on by default).
  const direct = (change: Record<string, unknown>) =>
    onChange({
      privacy_level: options.privacy_level,
      disable_comment: options.disable_comment !== false,
      disable_duet: options.disable_duet !== false,
      disable_stitch: options.disable_stitch !== false,
      ...change,
    });
  const privacyError = errorFor(`options.${account.id}.privacy_level`) ?? errorFor(`options.${account.id}`);

  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" aria-describedby={`${id}-error`}>
      <legend className="px-1 text-sm font-medium text-slate-800">TikTok settings for {account.handle}</legend>
      {isPending && (
        <p className="text-sm text-slate-600" role="status">
          Reading what {account.handle} allows on TikTok…
        </p>
      )}
      {isError && (
        <p className="text-sm text-rose-700" role="alert">
          TikTok’s settings for {account.handle} could not be read.{' '}
          <button type="button" className="underline" onClick={() => void refetch()}>
            Try again
          </button>
        </p>
      )}
      {info && (
        <>
          <fieldset>
            <legend className="text-sm text-slate-700">How to post</legend>
            <div className="mt-1 flex flex-wrap gap-4">
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" name={`${id}-mode`} checked={!inbox} onChange={() => direct({})} />
                Post to TikTok
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${id}-mode`}
                  checked={inbox}
                  onChange={() => onChange({ post_mode: 'inbox' })}
                />
                Send to my TikTok inbox <span className="text-slate-500">(finish the post in the TikTok app)</span>
              </label>
            </div>
          </fieldset>
          {!inbox && (
            <>
              <fieldset aria-describedby={`${id}-privacy-error`}>
                <legend className="text-sm text-slate-700">Who can see this video (required)</legend>
                <div className="mt-1 flex flex-wrap gap-4">
                  {info.privacyLevels.map((level) => (
                    <label key={level} className="flex items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name={`${id}-privacy`}
                        value={level}
                        checked={options.privacy_level === level}
                        onChange={() => direct({ privacy_level: level })}
                      />
                      {LEVEL_LABELS[level] ?? level}
                    </label>
                  ))}
                </div>
                <FieldError id={`${id}-privacy`} error={privacyError} />
              </fieldset>
              <div className="flex flex-wrap gap-4">
                {INTERACTIONS.map((i) => (
                  <label key={i.key} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      disabled={info[i.off]}
                      checked={!info[i.off] && options[i.key] === false}
                      onChange={(e) => direct({ [i.key]: !e.currentTarget.checked })}
                    />
                    {i.label}
                    {info[i.off] && (
                      <span className="text-slate-500">(turned off in this account’s TikTok settings)</span>
                    )}
                  </label>
                ))}
              </div>
            </>
          )}
          {info.maxDurationSec !== null && (
            <p className="text-xs text-slate-500">This account may post videos up to {info.maxDurationSec} seconds.</p>
          )}
        </>
      )}
      <FieldError id={id} error={inbox ? privacyError : undefined} />
    </fieldset>
  );
}

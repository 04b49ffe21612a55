import { Fragment } from 'react';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import { findXUrls } from '@/lib/providers/x/text-length';
import { youtubeVideoSettings } from '@/lib/providers/youtube/settings';
import type { ComposeAccount } from './accounts-picker';

/** How each network shows a link in a post: how many characters of it you see before the ellipsis. */
const LINK_DISPLAY: Record<ProviderName, number | null> = {
  x: 23, // wrapped in t.co, shown as the start of its address
  mastodon: 30,
  bluesky: 30,
  linkedin: null, // shown as written
  threads: null,
  instagram: null, // not linked in captions
  tiktok: null, // captions show links as plain text
  facebook: null, // shown as written, with the link's preview card below
  youtube: null, // descriptions show links as written
};
/** LinkedIn folds a long post after about three lines ("…see more"). */
const LINKEDIN_FOLD = 210;

const URL = /https?:\/\/[^\s]+/g;

function linkRanges(provider: ProviderName, text: string): [number, number][] {
  if (provider === 'x') return findXUrls(text);
  return [...text.matchAll(URL)].map((m) => [m.index, m.index + m[0].length] as [number, number]);
}

function displayLink(url: string, shown: number | null) {
  const bare = url.replace(/^https?:\/\//, '').replace(/^www\./, '');
  return shown && bare.length > shown ? `${bare.slice(0, shown - 1)}…` : bare;
}

/** The text with its links as the network displays them. */
function PreviewText({ provider, text }: { provider: ProviderName; text: string }) {
  const parts: { text: string; link?: string }[] = [];
  let cursor = 0;
  for (const [start, end] of linkRanges(provider, text)) {
    parts.push(
      { text: text.slice(cursor, start) },
      { text: displayLink(text.slice(start, end), LINK_DISPLAY[provider]), link: text.slice(start, end) },
    );
    cursor = end;
  }
  parts.push({ text: text.slice(cursor) });
  return (
    <>
      {parts.map((p, i) =>
        p.link ? (
          <span key={i} className="text-indigo-700" title={p.link}>
            {p.text}
          </span>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * A post as one network will show it: the account, the text with links displayed the network's way, the count
 * the network compares with its limit and, past it, by how much.
 */
export function NetworkPreview({ account, text }: { account: ComposeAccount; text: string }) {
  const { label, countText, textLimit } = PROVIDER_META[account.provider];
  const count = countText(text);
  const folded = account.provider === 'linkedin' && text.length > LINKEDIN_FOLD;
  return (
    <figure
      aria-label={`Preview on ${label} for ${account.handle}`}
      className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm"
    >
      <figcaption className="mb-2 flex items-center gap-2">
        <span
          aria-hidden
          className="inline-flex size-8 items-center justify-center rounded-full bg-slate-800 text-xs font-bold text-white"
        >
          {(account.displayName ?? account.handle.replace(/^@/, '')).charAt(0).toUpperCase()}
        </span>
        <span>
          <span className="font-semibold text-slate-900">{account.displayName ?? account.handle}</span>{' '}
          <span className="text-slate-500">
            {account.handle} · {label}
          </span>
        </span>
      </figcaption>
      {account.provider === 'youtube' && text.trim() && (
        <p className="mb-1 font-semibold text-slate-900">
          <span className="sr-only">Video title: </span>
          {youtubeVideoSettings({ text }).title}
        </p>
      )}
      <p className="whitespace-pre-wrap break-words text-slate-900">
        {text.trim() ? (
          <PreviewText provider={account.provider} text={folded ? text.slice(0, LINKEDIN_FOLD) : text} />
        ) : (
          <span className="text-slate-400">Nothing written yet</span>
        )}
        {folded && <span className="text-slate-500">…see more</span>}
      </p>
      <p className={`mt-2 text-xs ${count > textLimit ? 'font-semibold text-rose-700' : 'text-slate-600'}`}>
        {count}/{textLimit} as {label} counts
        {account.provider === 'x' && ' (a link counts 23, an emoji or CJK character 2)'}
        {account.provider === 'youtube' &&
          ' (the description, in bytes; the title is its first line, at most 100 characters, without < and >)'}
        {count > textLimit && ` — ${count - textLimit} over the limit`}
      </p>
    </figure>
  );
}

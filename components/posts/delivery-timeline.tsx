'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { LocalTime } from '@/components/ui/local-time';
import type { PostDetail } from '@/lib/posts/post-detail';
import { webLink } from '@/lib/posts/web-link';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls } from '@/lib/query/keys';
import { StatusBadge } from './status-badge';

const LIVE = new Set(['publishing', 'ambiguous']);
const DOT: Record<string, string> = { event: 'bg-slate-400', attempt: 'bg-indigo-500', check: 'bg-amber-500' };

/** Per delivery, a vertical timeline; refreshes every second while anything can still change by itself. */
export function DeliveryTimelines({ postId }: { postId: string }) {
  const { data } = useQuery({
    queryKey: queryKeys.post(postId),
    queryFn: () => getJson<PostDetail>(readUrls.post(postId)),
    refetchInterval: (query) => {
      const post = query.state.data as PostDetail | null | undefined;
      const soon = post && Date.parse(post.scheduledAt) < Date.now() + 60_000;
      return post?.deliveries.some((d) => LIVE.has(d.status) || (d.status === 'scheduled' && soon)) ? 1_000 : false;
    },
  });
  if (!data) return null;
  if (!data.parts) {
    // A post's first comment (part 1) is a delivery of its own, right after its post on the same account.
    return (
      <div className="space-y-6">
        {data.firstComment !== null && (
          <p className="text-sm text-slate-700">
            <span className="font-medium">First comment:</span> {data.firstComment}
          </p>
        )}
        {data.deliveries.map((d) =>
          d.part === 0 ? (
            <DeliveryCard key={d.id} d={d} label={`Delivery to ${d.handle}`} />
          ) : (
            <DeliveryCard
              key={d.id}
              d={d}
              label={`First comment on ${d.handle}`}
              waitingFor={waitingFor(data.deliveries, d)}
              firstComment
            />
          ),
        )}
      </div>
    );
  }
  const n = data.parts.length;
  return (
    <ol className="space-y-8">
      {data.parts.map((part) => (
        <li key={part.position} aria-labelledby={`part-${part.position}-title`} data-testid="thread-part">
          <h3 id={`part-${part.position}-title`} className="mb-2 text-sm font-semibold text-slate-700">
            Part {part.position + 1} of {n}
          </h3>
          <p className="mb-3 whitespace-pre-wrap rounded-lg bg-white p-4 text-slate-900 shadow-sm ring-1 ring-slate-200">
            {part.text}
          </p>
          {part.media.length > 0 && (
            <ul aria-label={`Images of part ${part.position + 1}`} className="mb-3 flex flex-wrap gap-3">
              {part.media.map((m, i) => (
                <li key={`${m.id}-${i}`} className="w-32 text-xs text-slate-600">
                  {/* eslint-disable-next-line @next/next/no-img-element -- a private, per-workspace image: no optimiser */}
                  <img
                    src={`/api/app/media/${m.id}`}
                    alt={m.altText}
                    className="h-24 w-32 rounded object-cover ring-1 ring-slate-200"
                  />
                  <span className="mt-1 block truncate">{m.altText ? `Alt: ${m.altText}` : 'No alt text'}</span>
                </li>
              ))}
            </ul>
          )}
          <div className="space-y-4">
            {data.deliveries
              .filter((d) => d.part === part.position)
              .map((d) => (
                <DeliveryCard
                  key={d.id}
                  d={d}
                  nested
                  label={`Part ${part.position + 1} of ${n} to ${d.handle} on ${d.network}`}
                  waitingFor={waitingFor(data.deliveries, d)}
                />
              ))}
          </div>
        </li>
      ))}
    </ol>
  );
}

type Delivery = PostDetail['deliveries'][number];

/** A scheduled thread part waits for the part before it (same account) until that one is sent: its number. */
function waitingFor(all: Delivery[], d: Delivery): number | null {
  if (d.status !== 'scheduled' || d.part === 0) return null;
  const previous = all.find((p) => p.accountId === d.accountId && p.part === d.part - 1);
  return previous && previous.status !== 'sent' ? d.part : null;
}

/** One delivery: its status, link, explanations and its own timeline (a thread part's, for threads). */
function DeliveryCard({
  d,
  label,
  nested = false,
  waitingFor = null,
  firstComment = false,
}: {
  d: Delivery;
  label: string;
  nested?: boolean;
  waitingFor?: number | null;
  /** The post's first comment (part 1 of a post that is not a thread). */
  firstComment?: boolean;
}) {
  const Heading = nested ? 'h4' : 'h3';
  return (
    <section
      aria-label={label}
      data-testid="delivery"
      className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <header className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <Heading className="text-sm font-semibold">
          {firstComment && 'First comment · '}
          {d.handle}
          {(nested || firstComment) && <span className="font-normal text-slate-600"> on {d.network}</span>}
        </Heading>
        <span className="flex items-center gap-3">
          {webLink(d.url) ? (
            <a href={webLink(d.url)!} className="text-sm text-indigo-700 underline" target="_blank" rel="noreferrer">
              View on platform
            </a>
          ) : (
            d.url && (
              <code
                className="text-xs break-all text-slate-600"
                title="On its own PDS (see the evidence): no bsky.app page"
              >
                {d.url}
              </code>
            )
          )}
          <StatusBadge status={d.status} />
        </span>
      </header>
      {waitingFor !== null && (
        <p className="mb-4 text-sm text-slate-600">
          {firstComment
            ? `Waits for the post to be confirmed on ${d.handle}: it is published under it, right after (never under a post that failed or is in review).`
            : `Waits for part ${waitingFor} to be on ${d.handle}: it is published as a reply to it, right after.`}
        </p>
      )}
      {d.status === 'ambiguous' && (
        <p role="status" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          The platform may or may not have this post. Semel is checking before doing anything else — it will not be sent
          twice.
          {d.nextCheckAt && (
            <>
              {' '}
              Next check: <LocalTime iso={d.nextCheckAt} seconds />.
            </>
          )}
        </p>
      )}
      {d.failureReason && d.status === 'failed' && <p className="mb-4 text-sm text-rose-700">{d.failureReason}</p>}
      {d.held && (
        <p role="status" className="mb-4 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900 ring-1 ring-rose-200">
          <Link href="/accounts" className="font-semibold underline">
            Held: reconnect {d.handle}
          </Link>{' '}
          — its token was refused or has expired. Nothing was published; it goes out once the account is reconnected
          (unless it is past the lateness limit by then).
        </p>
      )}
      <ol className="relative ml-2 border-l border-slate-200" aria-label={`History of the delivery to ${d.handle}`}>
        {d.timeline.map((entry, i) => (
          <li key={i} className="mb-4 ml-4">
            <span
              className={`absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full ring-4 ring-white ${DOT[entry.kind]}`}
              aria-hidden
            />
            <p className="text-xs text-slate-500">
              <LocalTime iso={entry.at} seconds />
            </p>
            <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
              {entry.title}
              {entry.kind === 'event' && entry.status && <StatusBadge status={entry.status} />}
            </p>
            {entry.body && <p className="text-xs text-slate-600">{entry.body}</p>}
            {entry.evidence && Object.keys(entry.evidence).length > 0 && (
              <details className="mt-1 text-xs text-slate-600">
                <summary className="cursor-pointer">Evidence</summary>
                <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2">
                  {JSON.stringify(entry.evidence, null, 2)}
                </pre>
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

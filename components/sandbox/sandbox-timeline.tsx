'use client';

import { PROVIDER_META } from '@/lib/providers/catalog';
import { PROVIDER_LABEL } from '@/lib/providers/labels';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { FAULT_LABELS, PROFILE_LABELS, type FaultSettings } from '@/lib/sandbox/labels';
import { useSandboxTimeline } from './use-sandbox-timeline';

function faultSummary(faults: FaultSettings): string {
  const parts = (Object.keys(FAULT_LABELS) as (keyof typeof FAULT_LABELS)[])
    .filter((k) => faults[k] > 0)
    .map((k) => `${FAULT_LABELS[k].split(' (')[0]} ${Math.round(faults[k] * 100)}%`);
  if (faults.readLagMs > 0) parts.unshift(`Read lag ${faults.readLagMs} ms`);
  if (faults.processingMs > 0 && faults.processingShare > 0) {
    parts.unshift(
      `Processing ${faults.processingMs} ms${faults.processingShare < 1 ? ` (${Math.round(faults.processingShare * 100)}% of writes)` : ''}`,
    );
  }
  if (faults.latencyMs > 0) parts.unshift(`Latency ${faults.latencyMs} ms`);
  const faulty = parts.length > 0;
  // Not a fault: what people send the account (docs/sandbox.md#inbound).
  if (faults.inboundPerDay > 0) parts.push(`${faults.inboundPerDay} inbound a day`);
  return faulty ? parts.join(' · ') : parts.length ? `No faults · ${parts.join(' · ')}` : 'No faults';
}

export function SandboxTimeline({ workspaceId }: { workspaceId: string }) {
  const { data: accounts = [] } = useSandboxTimeline(workspaceId);
  if (accounts.length === 0) {
    return (
      <EmptyState title="No sandbox accounts">
        Connect a sandbox account on the Accounts page; its posts show here as they land.
      </EmptyState>
    );
  }
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {accounts.map((a) => (
        <section
          key={a.accountId}
          aria-label={`Timeline of ${a.handle}`}
          className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <header className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-sm font-semibold text-slate-900">{a.handle}</h3>
            <div className="flex items-center gap-2">
              <Badge tone="blue">{PROVIDER_LABEL[a.provider]}</Badge>
              <Badge tone={a.faults.profile === 'x' || a.faults.profile === 'mastodon-modern' ? 'gray' : 'amber'}>
                <span data-testid="profile" title={PROFILE_LABELS[a.faults.profile]}>
                  {a.faults.profile}
                </span>
              </Badge>
              {a.disconnected && <Badge>disconnected</Badge>}
              <Badge tone={a.total > 0 ? 'green' : 'gray'}>
                <span data-testid="copy-count">{a.total}</span>&nbsp;{a.total === 1 ? 'post' : 'posts'}
              </Badge>
            </div>
          </header>
          <p className="mb-3 text-xs text-slate-600" data-testid="fault-summary">
            {faultSummary(a.faults)}
          </p>
          {a.posts.length === 0 ? (
            <p className="text-sm text-slate-500">Nothing published yet.</p>
          ) : (
            <ol role="list" aria-label={`Posts of ${a.handle}`} className="max-h-80 space-y-2 overflow-y-auto">
              {a.posts.map((p) => (
                <li
                  key={p.id}
                  className={`rounded-md px-3 py-2 text-sm ${p.deletedAt ? 'bg-slate-100 opacity-70' : 'bg-slate-50'}`}
                >
                  <p className={`whitespace-pre-wrap text-slate-900 ${p.deletedAt ? 'line-through' : ''}`}>{p.text}</p>
                  {p.media.length > 0 ? (
                    <ul aria-label="Images" className="mt-1 flex flex-wrap gap-1">
                      {p.media.map((m, i) => (
                        <li
                          key={`${m.sha256}-${i}`}
                          className="rounded bg-white px-2 py-0.5 text-xs text-slate-700 ring-1 ring-slate-200"
                          title={`SHA-256 ${m.sha256}`}
                        >
                          🖼 {m.type.replace('image/', '').toUpperCase()} · {m.sha256.slice(0, 8)}
                          {m.altText ? ` · alt “${m.altText}”` : ' · no alt text'}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  <p className="mt-1 text-xs text-slate-500">
                    #{p.id} · {p.kind}
                    {p.inReplyToId ? ` to #${p.inReplyToId}` : ''}
                    {p.recipientId ? ` to ${p.recipientId}` : ''} · {new Date(p.createdAt).toLocaleTimeString()}
                    {p.idempotencyKey ? ` · key ${p.idempotencyKey.slice(0, 8)}…` : ''}
                    {p.deletedAt ? (
                      <>
                        {' '}
                        · <Badge tone="red">deleted {new Date(p.deletedAt).toLocaleTimeString()}</Badge>
                      </>
                    ) : null}
                    {!p.deletedAt && !(a.provider === 'x' && p.kind === 'dm') ? (
                      <>
                        {' '}
                        ·{' '}
                        <a
                          href={PROVIDER_META[a.provider].sandboxPostPath(p.id, a.platformUserId)}
                          target="_blank"
                          rel="noreferrer"
                          className="text-indigo-700 underline"
                        >
                          Open
                        </a>
                      </>
                    ) : null}
                  </p>
                </li>
              ))}
            </ol>
          )}
        </section>
      ))}
    </div>
  );
}

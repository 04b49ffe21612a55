import type { ProcessingAllowance } from '@/lib/reads/accounts';

/** 60000 → "60 s", 900000 → "15 min" (whole minutes from 5 min up, as the ceiling is set). */
export function formatDuration(ms: number): string {
  if (ms >= 300_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  const seconds = ms / 1000;
  return `${seconds >= 10 ? Math.round(seconds) : Math.round(seconds * 10) / 10} s`;
}

/**
 * How long the reconciler waits after a call before it may read the platform (docs/architecture.md#learned-allowance),
 * and what this host taught it: "Processing allowance: 60 s (learned 100 s from a late copy on …; ceiling 15 min)".
 */
export function ProcessingAllowanceLine({ allowance: a }: { allowance: ProcessingAllowance }) {
  const learned =
    a.learnedMs === null
      ? null
      : `learned ${formatDuration(a.learnedMs)} from ${a.learnedFrom === 'late_copy' ? 'a late copy' : 'a post found late'} on ${new Date(a.learnedAt!).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}`;
  const raised = a.effectiveMs > a.configuredMs ? `, raised from ${formatDuration(a.configuredMs)}` : '';
  return (
    <p className="text-xs text-slate-600" data-testid="processing-allowance">
      Processing allowance: {formatDuration(a.effectiveMs)} ({learned ? `${learned}${raised}; ` : ''}ceiling{' '}
      {formatDuration(a.ceilingMs)})
    </p>
  );
}

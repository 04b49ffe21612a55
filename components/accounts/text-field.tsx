import type { InputHTMLAttributes } from 'react';

/** A labelled input with its error in an aria-describedby region. */
export function TextField({ id, label, error, hint, ...props }: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string; error?: string; hint?: string }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">{label}</label>
      <input
        id={id}
        aria-invalid={Boolean(error)}
        aria-describedby={`${id}-error`}
        className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm disabled:bg-slate-100"
        {...props}
      />
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      <p id={`${id}-error`} aria-live="polite" className="mt-1 text-sm text-rose-700">{error}</p>
    </div>
  );
}

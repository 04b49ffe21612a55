'use client';

import { useTransition } from 'react';

type Option = { slug: string; name: string; role: string };

export function WorkspaceSwitcher({
  current,
  options,
  switchTo,
}: {
  current: string;
  options: Option[];
  switchTo: (slug: string) => Promise<unknown>;
}) {
  const [pending, startTransition] = useTransition();
  if (options.length < 2) return <span className="text-sm font-medium text-slate-900">{options[0]?.name}</span>;
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only">Workspace</span>
      <select
        className="rounded-md border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm font-medium shadow-sm ring-1 ring-slate-300"
        value={current}
        disabled={pending}
        onChange={(e) => {
          const slug = e.target.value;
          startTransition(async () => {
            await switchTo(slug);
          });
        }}
      >
        {options.map((o) => (
          <option key={o.slug} value={o.slug}>
            {o.name} ({o.role})
          </option>
        ))}
      </select>
    </label>
  );
}

'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

const ITEMS = [
  { href: '/calendar', label: 'Calendar' },
  { href: '/queue', label: 'Queue' },
  { href: '/inbox', label: 'Inbox' },
  { href: '/compose', label: 'Compose' },
  { href: '/drafts', label: 'Drafts' },
  { href: '/import', label: 'Import' },
  { href: '/library', label: 'Library' },
  { href: '/evergreen', label: 'Evergreen' },
  { href: '/feeds', label: 'Feeds' },
  { href: '/approvals', label: 'Approvals' },
  { href: '/review', label: 'Review' },
  { href: '/analytics', label: 'Analytics' },
  { href: '/reports', label: 'Reports' },
  { href: '/accounts', label: 'Accounts' },
  { href: '/sandbox', label: 'Sandbox' },
  { href: '/settings', label: 'Settings' },
];

/** `showOutbox`: the development Outbox, listed only while SMTP_URL is unset (emails are stored, not sent). */
export function SidebarNav({ reviewCount = 0, showOutbox = false }: { reviewCount?: number; showOutbox?: boolean }) {
  const pathname = usePathname();
  const items = showOutbox ? [...ITEMS.slice(0, -1), { href: '/outbox', label: 'Outbox' }, ITEMS.at(-1)!] : ITEMS;
  return (
    <nav aria-label="Main" className="flex flex-col gap-1">
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(item.href + '/');
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-md px-3 py-2 text-sm font-medium ${active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100'}`}
          >
            <span className="flex items-center justify-between">
              {item.label}
              {item.href === '/review' && reviewCount > 0 && (
                <span
                  className="rounded-full bg-amber-100 px-2 text-xs font-semibold text-amber-900"
                  aria-label={`${reviewCount} to review`}
                >
                  {reviewCount}
                </span>
              )}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}

import Link from 'next/link';
import type { ReactNode } from 'react';
import { NotificationBell } from '@/components/shell/notification-bell';
import { SidebarNav } from '@/components/shell/sidebar-nav';
import { SignOutButton } from '@/components/shell/sign-out-button';
import { WorkspaceSwitcher } from '@/components/shell/workspace-switcher';
import { Badge } from '@/components/ui/badge';
import { getDb } from '@/db/client';
import { countUnreadNotifications, listNotifications } from '@/db/queries/notifications';
import { countReviewItems } from '@/db/queries/review';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { markAllNotificationsRead } from './notifications-actions';
import { switchWorkspace } from './actions';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { user, workspace, role, memberships } = await requirePageWorkspace();
  const db = getDb();
  const adminOf = memberships.filter((m) => can(m.role, 'review')).map((m) => m.id);
  const [reviewCount, unread, notifications] = await Promise.all([
    countReviewItems(db, { workspaceIds: adminOf }),
    countUnreadNotifications(db, { workspaceId: workspace.id, userId: user.id }),
    listNotifications(db, { workspaceId: workspace.id, userId: user.id }),
  ]);
  const bellItems = notifications.map((n) => ({
    id: n.id,
    kind: n.kind,
    message: n.message,
    unread: !n.read,
    href:
      n.kind === 'reconnect'
        ? '/accounts'
        : n.kind === 'approval_requested'
          ? '/approvals'
          : n.kind === 'needs_review' && can(role, 'review')
            ? `/review#delivery-${n.deliveryId}`
            : n.postId
              ? `/posts/${n.postId}`
              : '/queue',
  }));
  const showOutbox = !getEnv().SMTP_URL;
  return (
    <div className="flex min-h-screen">
      <aside className="hidden w-56 shrink-0 border-r border-slate-200 bg-white p-4 md:block print:hidden">
        <Link href="/queue" className="mb-6 block px-3 text-lg font-bold tracking-tight text-indigo-700">
          Semel
        </Link>
        <SidebarNav reviewCount={reviewCount} showOutbox={showOutbox} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between gap-4 border-b border-slate-200 bg-white px-6 py-3 print:hidden">
          <div className="flex items-center gap-3">
            <WorkspaceSwitcher
              current={workspace.slug}
              options={memberships.map((m) => ({ slug: m.slug, name: m.name, role: m.role }))}
              switchTo={switchWorkspace}
            />
            <Badge tone={role === 'admin' ? 'violet' : role === 'manager' ? 'blue' : 'gray'}>{role}</Badge>
            {can(role, 'manageWorkspace') && (
              <Link href="/workspaces/new" className="text-sm font-semibold text-indigo-700 hover:underline">
                New workspace
              </Link>
            )}
          </div>
          <div className="flex items-center gap-3">
            <NotificationBell unread={unread} items={bellItems} markRead={markAllNotificationsRead} />
            <span className="text-sm text-slate-700" data-testid="current-user">
              {user.name} · {user.email}
            </span>
            <SignOutButton />
          </div>
        </header>
        <div className="border-b border-slate-200 bg-white px-4 py-2 md:hidden">
          <SidebarNav reviewCount={reviewCount} showOutbox={showOutbox} />
        </div>
        <main className="mx-auto w-full max-w-5xl flex-1 px-6 py-8">{children}</main>
      </div>
    </div>
  );
}

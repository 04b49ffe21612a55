import { zonedParts } from '@/lib/calendar/grid';
import type { CalendarPost } from '@/lib/reads/calendar';

/** A post where the viewer sees it: its civil date, hour and `HH:mm` in their zone, and its time as they read it. */
export type PlacedPost = { post: CalendarPost; date: string; hour: number; localTime: string; label: string };

/**
 * Places posts in the viewer's zone, each at the time a move in flight shows it at (optimistic), in time order.
 */
export function placePosts(
  posts: CalendarPost[],
  moving: Record<string, string>,
  timeZone: string,
  locale: string,
): PlacedPost[] {
  const format = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone });
  return posts
    .map((p) => (moving[p.id] ? { ...p, scheduledAt: moving[p.id]! } : p))
    .sort((a, b) => a.scheduledAt.localeCompare(b.scheduledAt))
    .map((post) => {
      const { date, hour, time } = zonedParts(post.scheduledAt, timeZone);
      return { post, date, hour, localTime: time, label: format.format(new Date(post.scheduledAt)) };
    });
}

/** Placed posts by a key (a day, or a day and hour), in time order within each. */
export function groupPlaced(placed: PlacedPost[], key: (p: PlacedPost) => string): Map<string, PlacedPost[]> {
  const groups = new Map<string, PlacedPost[]>();
  for (const p of placed) {
    const k = key(p);
    const group = groups.get(k);
    if (group) group.push(p);
    else groups.set(k, [p]);
  }
  return groups;
}

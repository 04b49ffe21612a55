import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { readInboxItem } from '@/lib/reads/inbox';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One item with its conversation, answers, notes and who is replying now (polled while it is open). */
export const GET = appRead<{ id: string }>('read', ({ memberships, user }, { id }) =>
  UUID.test(id) ? readInboxItem(getDb(), { memberships, userId: user.id, itemId: id }) : Promise.resolve(null),
);

import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { readQueue } from '@/lib/reads/queue';

export const dynamic = 'force-dynamic';

export const GET = appRead('read', ({ workspace }) => readQueue(getDb(), { workspaceId: workspace.id }));

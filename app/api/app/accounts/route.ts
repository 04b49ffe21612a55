import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { readAccounts } from '@/lib/reads/accounts';

export const dynamic = 'force-dynamic';

export const GET = appRead('read', ({ workspace }) => readAccounts(getDb(), { workspaceId: workspace.id }));

import { purgeDeletedWorkspaces } from '@/lib/teams/workspaces';
import { defineJob } from './job';

/** Removes the data of workspaces an admin deleted (lib/teams/workspaces.ts), in the background. */
export const purgeWorkspacesJob = defineJob({
  name: 'purge-workspaces',
  run: (db, options: { limit?: number }) => purgeDeletedWorkspaces(db, options),
  defaults: () => ({}),
  cadence: { everyMs: 60_000 },
});

import { inboxOptionsFromEnv } from '@/lib/inbox/options';
import { readInbox } from '@/lib/inbox/read-inbox';
import { defineJob } from './job';

/** Reads what people say to each connected account (replies, comments, mentions, DMs) and settles answers (lib/inbox/). */
export const inboxJob = defineJob({
  name: 'inbox',
  run: readInbox,
  defaults: () => inboxOptionsFromEnv(),
  cadence: { everyMs: 5_000 },
});

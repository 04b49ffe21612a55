import { parseArgs } from 'node:util';
import { createDatabase } from '@/db/client';
import { createApiKey } from '@/db/queries/api-keys';
import { getWorkspaceBySlug } from '@/db/queries/workspaces';
import { scopesSchema } from '@/lib/api/scopes';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: {
    workspace: { type: 'string', default: 'demo' },
    name: { type: 'string', default: 'CLI key' },
    scopes: { type: 'string', default: 'posts:read,posts:write,accounts:read' },
  },
});
const scopes = scopesSchema.safeParse(values.scopes);
if (!scopes.success) {
  console.error(`--scopes: ${scopes.error.issues.map((i) => i.message).join('; ')}`);
  process.exit(2);
}
const database = await resolveDatabase();
const { db, close } = createDatabase(database.url);
try {
  const workspace = await getWorkspaceBySlug(db, { slug: values.workspace! });
  if (!workspace) {
    console.error(
      `No workspace with slug "${values.workspace}". Run \`npm run db:seed\` first or pass --workspace <slug>.`,
    );
    process.exitCode = 1;
  } else {
    const key = generateApiKey();
    await createApiKey(db, {
      workspaceId: workspace.id,
      name: values.name!,
      prefix: key.prefix,
      hash: key.hash,
      scopes: scopes.data,
    });
    console.log(key.token);
  }
} finally {
  await close();
  await database.stop();
}

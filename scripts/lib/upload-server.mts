// The tus upload routes (app/api/v1/uploads) over real HTTP in a process of their own, for `npm run bench`'s upload
// section: its peak RSS is the server's alone. Prints `listening <origin>`; ends with its process group.
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

// Route modules guard themselves with `server-only`, which throws outside React Server Components: Next resolves it to
// an empty module, and so does this process (to the one the tests use, testing/server-only.ts).
const empty = pathToFileURL(new URL('../../testing/server-only.ts', import.meta.url).pathname).href;
registerHooks({
  resolve: (specifier, context, next) =>
    specifier === 'server-only' ? { url: empty, shortCircuit: true } : next(specifier, context),
});

const { serveRoutes } = await import('@/testing/route-server');
const server = await serveRoutes({
  '/api/v1/uploads': await import('@/app/api/v1/uploads/route'),
  '/api/v1/uploads/[id]': await import('@/app/api/v1/uploads/[id]/route'),
});
console.log(`listening ${server.origin}`);

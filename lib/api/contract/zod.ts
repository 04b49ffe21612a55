import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// `.openapi(...)` is how a schema gets OpenAPI metadata or becomes a named component; contract modules
// import `z` from here so the extension is installed before they build their own schemas.
extendZodWithOpenApi(z);

/**
 * Names a schema built elsewhere (e.g. a handler's request schema) as a component. Zod copies prototype
 * methods onto each schema when it is built, so one built before the extension has no `.openapi` of its own.
 */
export function named<T extends z.ZodType>(name: string, schema: T): T {
  return z.ZodType.prototype.openapi.call(schema, name) as T;
}

export { z };

import { openApiDocument } from '@/lib/api/contract/document';
import { apiV1Contracts } from '../contracts';

// Rendered per request: the server URL is the caller's origin, never the build host's.
export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return Response.json(openApiDocument(new URL(request.url).origin, apiV1Contracts));
}

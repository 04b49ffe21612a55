import { openApiDocument } from '@/lib/api/contract/document';
import { requestOrigin } from '@/lib/http/request-origin';
import { apiV1Contracts } from '../contracts';

// Rendered per request: the server URL is the caller's origin, never the build host's.
export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return Response.json(openApiDocument(requestOrigin(request), apiV1Contracts));
}

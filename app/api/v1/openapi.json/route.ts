import { openApiDocument } from '@/lib/api/openapi';

export function GET(request: Request) {
  return Response.json(openApiDocument(new URL(request.url).origin));
}

import Link from 'next/link';
import { ApiReference } from '@/components/api-docs/api-reference';
import { requirePageWorkspace } from '@/lib/auth/gate';

export const metadata = { title: 'API reference' };

/**
 * The reference for /api/v1, rendered from the served OpenAPI document. Signed in like the rest of the
 * dashboard (it is reached from Settings → API); the document itself stays public for API tools.
 */
export default async function ApiReferencePage() {
  await requirePageWorkspace();
  return (
    <div className="min-h-screen bg-white">
      <nav aria-label="API reference" className="flex items-center gap-4 border-b border-slate-200 px-6 py-3 text-sm">
        <Link href="/settings/api" className="font-semibold text-indigo-700 hover:underline">
          ← Settings · API
        </Link>
        <a href="/api/v1/openapi.json" className="text-slate-600 hover:underline">
          OpenAPI 3.1 document (JSON)
        </a>
      </nav>
      <main>
        <ApiReference url="/api/v1/openapi.json" />
      </main>
    </div>
  );
}

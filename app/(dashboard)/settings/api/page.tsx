import Link from 'next/link';
import { ApiKeyRow, CreateApiKeyForm } from '@/components/settings/api-keys';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listApiKeys } from '@/db/queries/api-keys';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { createApiKeyAction, revokeApiKeyAction } from './actions';

export const metadata = { title: 'API' };

const EXAMPLE = `curl -X POST http://localhost:3000/api/v1/posts \\
  -H "Authorization: Bearer $SEMEL_API_KEY" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -H "Content-Type: application/json" \\
  -d '{"text":"Hello from the API","accountIds":["<account id>"]}'`;

export default async function ApiSettingsPage() {
  const { workspace, role } = await requirePageWorkspace();
  const keys = can(role, 'manageApiKeys') ? await listApiKeys(getDb(), { workspaceId: workspace.id }) : [];
  return (
    <>
      <PageHeader
        title="API"
        description={
          <>
            Create posts from your own tools.{' '}
            <Link className="text-indigo-700 underline" href="/settings">
              ← Settings
            </Link>
          </>
        }
      />
      <section aria-labelledby="keys" className="mb-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="keys" className="mb-4 text-base font-semibold">
          API keys
        </h2>
        {can(role, 'manageApiKeys') ? (
          <>
            <CreateApiKeyForm action={createApiKeyAction} />
            <ul
              role="list"
              aria-label="API keys"
              className="mt-6 divide-y divide-slate-200 rounded-md ring-1 ring-slate-200"
            >
              {keys.length === 0 && <li className="px-4 py-3 text-sm text-slate-600">No keys yet.</li>}
              {keys.map((k) => (
                <ApiKeyRow
                  key={k.id}
                  canRevoke
                  revoke={revokeApiKeyAction}
                  apiKey={{
                    ...k,
                    createdAt: k.createdAt.toISOString(),
                    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
                    revokedAt: k.revokedAt?.toISOString() ?? null,
                  }}
                />
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-slate-600">Only admins can create and revoke API keys.</p>
        )}
      </section>
      <section aria-labelledby="usage" className="rounded-lg bg-white p-6 text-sm shadow-sm ring-1 ring-slate-200">
        <h2 id="usage" className="mb-2 text-base font-semibold">
          Using the API
        </h2>
        <p className="mb-3 text-slate-700">
          Send one <code>Idempotency-Key</code> per post you mean to create and reuse it on every retry. A retry returns
          the original response with <code>Idempotent-Replayed: true</code>; a retry while the first request still runs
          gets <code>409</code> with
          <code> Retry-After</code>; the same key with a different body gets <code>422</code>. Keys are kept at least 24
          hours and at least until the post&apos;s time plus 7 days; after that the same key starts a new request.
        </p>
        <pre className="overflow-x-auto rounded-md bg-slate-900 p-4 text-xs text-slate-100">{EXAMPLE}</pre>
        <p className="mt-3 text-slate-700">
          Each key has scopes (<code>posts:read</code>, <code>posts:write</code>, <code>accounts:read</code>,{' '}
          <code>accounts:write</code>, <code>workspace:write</code>, <code>posts:approve</code>, <code>inbox:read</code>
          , <code>inbox:write</code>); a request outside them gets
          <code> 403</code> naming the missing scope. Each key may send {getEnv().API_RATE_LIMIT_PER_MINUTE} requests a
          minute; beyond that the answer is
          <code> 429</code> with <code>Retry-After</code>. Every answer carries <code>RateLimit-Limit</code>,{' '}
          <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>.
        </p>
        <p className="mt-4 text-slate-700">
          Every endpoint with its parameters, answers and errors:{' '}
          <Link className="text-indigo-700 underline" href="/docs/api">
            API reference
          </Link>{' '}
          (generated from the same schemas the API validates with), or the{' '}
          <a className="text-indigo-700 underline" href="/api/v1/openapi.json">
            OpenAPI 3.1 document
          </a>{' '}
          for your tools.
        </p>
      </section>
    </>
  );
}

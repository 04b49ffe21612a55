import { requiredRole, type Capability } from '@/lib/auth/can';

export function Forbidden({ capability }: { capability: Capability }) {
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-6">
      <h1 className="text-lg font-semibold text-amber-900">You don&apos;t have access to this page</h1>
      <p className="mt-1 text-sm text-amber-900">
        It needs the {requiredRole(capability)} role in this workspace. Ask a workspace admin if you need it.
      </p>
    </div>
  );
}

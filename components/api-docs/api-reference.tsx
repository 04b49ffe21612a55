'use client';

import type { ReferenceProps } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import dynamic from 'next/dynamic';
import { useMemo } from 'react';

// Scalar mounts a Vue app on a DOM node: browser-only, so it is not server-rendered.
const ApiReferenceReact = dynamic(() => import('@scalar/api-reference-react').then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => (
    <p role="status" className="p-6 text-sm text-slate-600">
      Loading the API reference…
    </p>
  ),
});

/**
 * Everything Scalar would fetch from its own servers is off: fonts, telemetry, the AI agent and MCP
 * links. The bundle is ours (no CDN), and "Test request" calls this origin directly, without a proxy.
 */
const baseConfiguration = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideDarkModeToggle: true,
  forceDarkModeState: 'light',
  documentDownloadType: 'json',
} satisfies ReferenceProps['configuration'];

export function ApiReference({ url }: { url: string }) {
  // Stable across renders: Scalar reapplies its configuration whenever the object changes.
  const configuration = useMemo(() => ({ ...baseConfiguration, url }), [url]);
  return <ApiReferenceReact configuration={configuration} />;
}

import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { ApiReferenceReact } from '@scalar/api-reference-react';
// Ours first: it undoes the dashboard's element rules, and Scalar's own classes come after it.
import './api-reference.css';
import '@scalar/api-reference-react/style.css';
import type { OpenApiDocument } from '../../api/meta/get-openapi.ts';
import { watchScalarA11y } from './scalar-a11y.ts';
import { isDark, subscribeTheme } from '../../lib/theme.ts';

/**
 * Scalar's API reference for the document, sent to `serverUrl` when someone tries a call. Loaded
 * lazily: it is most of the page's weight. Nothing of Scalar's own services is used (no agent, no
 * MCP button, no telemetry, no fonts from its CDN), and the key is never handed to it: whoever
 * tries a call types it in the request's Authentication, and it is not saved.
 */
export default function ApiReference({ spec, serverUrl }: { spec: OpenApiDocument; serverUrl: string }) {
  // The dashboard's light or dark (the system's, or the header's toggle); so does the reference.
  const dark = useSyncExternalStore(subscribeTheme, isDark, () => false);
  const configuration = useMemo(
    () => ({
      content: spec,
      servers: [{ url: serverUrl, description: 'This server' }],
      forceDarkModeState: dark ? ('dark' as const) : ('light' as const),
      hideDarkModeToggle: true,
      hideClientButton: true,
      documentDownloadType: 'none' as const,
      persistAuth: false,
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never' as const,
      // Every operation on the page, so the browser's find and a deep link reach it (about fifty).
      defaultOpenAllTags: true,
      agent: { disabled: true },
      mcp: { disabled: true },
      theme: 'default' as const,
    }),
    [spec, serverUrl, dark],
  );
  useEffect(() => watchScalarA11y(), []);
  return (
    <div className="api-reference">
      {/* Scalar reads its dark mode once: a change of the system's mounts it anew. */}
      <ApiReferenceReact key={dark ? 'dark' : 'light'} configuration={configuration} />
    </div>
  );
}

import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
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
export default function ApiReference({
  spec,
  serverUrl,
  onRendered,
}: {
  spec: OpenApiDocument;
  serverUrl: string;
  /** Called once Scalar has drawn the operations (seconds after mounting, for a large document). */
  onRendered: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
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
  useEffect(() => whenOperationsShown(box.current!, onRendered), [onRendered]);
  return (
    <div className="api-reference" ref={box}>
      {/* Scalar reads its dark mode once: a change of the system's mounts it anew. */}
      <ApiReferenceReact key={dark ? 'dark' : 'light'} configuration={configuration} />
    </div>
  );
}

/** Calls `shown` once the box holds a tag's section (Scalar's ids: `api-1/tag/writing`); returns a stop. */
function whenOperationsShown(box: HTMLElement, shown: () => void): () => void {
  const rendered = () => box.querySelector('[id*="/tag/"]') !== null;
  if (rendered()) {
    shown();
    return () => {};
  }
  const observer = new MutationObserver(() => {
    if (!rendered()) return;
    observer.disconnect();
    shown();
  });
  observer.observe(box, { childList: true, subtree: true });
  return () => observer.disconnect();
}

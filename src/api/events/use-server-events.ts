import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { hasApiKey, onSettingsChange } from '../settings.ts';

/**
 * The dashboard's one subscription to GET /api/events, mounted once by the app's providers. Not
 * started without an API key; restarted when the settings are saved (a new key after a 401, or
 * another server).
 */
export function useServerEvents(queryClient: QueryClient): void {
  const [settingsSaves, setSettingsSaves] = useState(0);
  useEffect(() => onSettingsChange(() => setSettingsSaves((n) => n + 1)), []);
  useEffect(() => {
    if (!hasApiKey()) return;
    const abort = new AbortController();
    // Loaded apart: it parses with the contract's zod schema, which the first page's bundle leaves out.
    void import('./follow-server-events.ts').then(
      ({ followServerEvents }) => followServerEvents(queryClient, abort.signal),
      () => undefined, // a chunk gone after an upgrade: the queries keep polling
    );
    return () => abort.abort();
  }, [queryClient, settingsSaves]);
}

import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useServerEvents } from '../api/events/use-server-events.ts';
import { createQueryClient } from './query-client.ts';

export function AppProviders({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  // One event stream for the whole dashboard: what it reports is refetched, and the queries it covers stop polling.
  useServerEvents(client);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

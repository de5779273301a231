import { queryOptions, useQuery } from '@tanstack/react-query';
import { EventsPage, type SessionEvent } from '../../../contract/sessionEvents.ts';
import { apiJson } from '../client.ts';
import { sessionKeys } from './keys.ts';

/** The most a page shows of one session's log (the store keeps all of it). */
export const MAX_SHOWN_EVENTS = 10_000;

/** A session's whole log, page after page. */
export async function getSessionEvents(sessionId: string, signal?: AbortSignal): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  for (let since = 0; events.length < MAX_SHOWN_EVENTS;) {
    const page = await apiJson(`/session/${encodeURIComponent(sessionId)}/events`, EventsPage, {
      query: { since, limit: 1000 },
      signal,
    });
    events.push(...page.events);
    if (!page.has_more) break;
    since = page.next_index;
  }
  return events;
}

export const sessionEventsQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: sessionKeys.events(sessionId),
    queryFn: ({ signal }) => getSessionEvents(sessionId, signal),
  });

export const useSessionEvents = (sessionId: string) => useQuery(sessionEventsQueryOptions(sessionId));

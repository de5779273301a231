import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RunStatusResponse } from '../../../contract/runs.ts';
import type { Session, SessionState } from '../../../contract/sessions.ts';
import { isStatus } from '../../api/errors.ts';
import { useEventsConnected } from '../../api/events/connection-state.ts';
import { useRunStatus } from '../../api/runs/get-run-status.ts';
import { runKeys } from '../../api/runs/keys.ts';
import { sessionQueryOptions } from '../../api/sessions/get-session.ts';
import { sessionKeys } from '../../api/sessions/keys.ts';
import { useSessionEventStream, type LiveEvents } from '../../api/sessions/stream-session-events.ts';

/** What the session page may paint: 'loading' until it knows, never a cached 'live' it has not read again. */
export type ShownState = 'loading' | SessionState;

/**
 * The state to paint. An end is final, so "ended" is believed from anywhere: the cache or the
 * session's own event stream (which says so before the cached entry is read again). Anything
 * else only once this page has read it itself: an entry cached by another page (the run page, the
 * list) may say "live" for a session that ended since.
 */
export function shownState(
  read: { data?: Pick<Session, 'state'>; isFetchedAfterMount: boolean },
  streamEnded: boolean,
): ShownState {
  if (streamEnded || read.data?.state === 'ended') return 'ended';
  if (!read.data || !read.isFetchedAfterMount) return 'loading';
  return read.data.state;
}

/** A run status cached by another page is shown only once read again, unless it had completed (final too). */
export const shownRun = (read: { data?: RunStatusResponse; isFetchedAfterMount: boolean }) =>
  read.data && (read.isFetchedAfterMount || read.data.completed) ? read.data : undefined;

export interface ShownSession {
  /** The session as read (its data may be older than `state`, which the event stream can overtake). */
  session: ReturnType<typeof useSessionRead>;
  state: ShownState;
  /** The run the session was started for, when it has one and its state is known. */
  run: RunStatusResponse | undefined;
  /** Its events as they happen, while it is not known to have ended: its live log. */
  live: LiveEvents;
  /** No such session on this server (404, or an id that is not one: 422). */
  unknown: boolean;
}

/** The session read again each time its page opens, whatever the cache holds. */
function useSessionRead(id: string) {
  const eventsConnected = useEventsConnected();
  return useQuery({ ...sessionQueryOptions(id, eventsConnected), refetchOnMount: 'always' });
}

/**
 * The session page's view of a session: its state as it may be painted, its run, and its event
 * stream. The stream's SessionEnded makes the session and its run read again, so the rest of the
 * page (the end reason, the run's outcome) follows at once.
 */
export function useShownSession(id: string): ShownSession {
  const queryClient = useQueryClient();
  const session = useSessionRead(id);
  // A session started for a run answers here; any other is a 404, asked once.
  const run = useRunStatus(id);
  const unknown = session.isError && (isStatus(session.error, 404) || isStatus(session.error, 422));
  const live = useSessionEventStream(id, !unknown && session.data?.state !== 'ended');
  const state = shownState(session, live.ended);
  const staleEnd = live.ended && session.data?.state !== 'ended';
  useEffect(() => {
    if (!staleEnd) return;
    void queryClient.invalidateQueries({ queryKey: sessionKeys.one(id) });
    void queryClient.invalidateQueries({ queryKey: runKeys.status(id) });
  }, [staleEnd, queryClient, id]);
  return { session, state, run: shownRun(run), live, unknown };
}

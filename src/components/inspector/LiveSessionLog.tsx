import type { LiveEvents } from '../../api/sessions/stream-session-events.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { EventLog } from './EventLog.tsx';

/**
 * A running session's log as it happens (console, navigations, downloads, clients and viewers,
 * steps), read from its event stream (useSessionEventStream, opened by the page, which reads the
 * same events for more); the inspector takes over once the session has ended.
 */
export function LiveSessionLog({ live }: { live: LiveEvents }) {
  return (
    <section aria-label="Live log">
      <EventLog
        events={live.events}
        title="Live log"
        empty={live.error ? undefined : 'Waiting for the first events…'}
      />
      {live.error !== null && (
        <ErrorNotice error={live.error} title="The live log was interrupted; reading it again…" />
      )}
    </section>
  );
}

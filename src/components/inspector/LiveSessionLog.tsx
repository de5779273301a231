import type { LiveEvents } from '../../api/sessions/stream-session-events.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { Tabs } from '../Tabs.tsx';
import { EventLog } from './EventLog.tsx';
import { LiveNetworkPanel } from './NetworkPanel.tsx';

/**
 * A running session's log as it happens (console, navigations, downloads, clients and viewers,
 * steps), read from its event stream (useSessionEventStream, opened by the page, which reads the
 * same events for more), and beside it its requests so far with their headers and bodies; the
 * inspector takes over once the session has ended.
 */
export function LiveSessionLog({ sessionId, live }: { sessionId: string; live: LiveEvents }) {
  return (
    <section aria-label="Live log">
      <Tabs
        label="Live session"
        tabs={[
          {
            key: 'log',
            label: 'Log',
            panel: () => (
              <>
                <EventLog
                  events={live.events}
                  title="Live log"
                  empty={live.error ? undefined : 'Waiting for the first events…'}
                />
                {live.error !== null && (
                  <ErrorNotice error={live.error} title="The live log was interrupted; reading it again…" />
                )}
              </>
            ),
          },
          { key: 'network', label: 'Network', panel: () => <LiveNetworkPanel sessionId={sessionId} /> },
        ]}
      />
    </section>
  );
}

import type { Bus } from '../events/bus.ts';
import type { Log } from '../log.ts';
import type { SessionNetworks } from '../network/sessionNetworks.ts';
import type { SessionPhases } from '../sessions/lifecycle.ts';
import { recordBusEvents } from './fromBus.ts';
import type { SessionEventLog } from './log.ts';
import { observePages } from './pageObserver.ts';

/**
 * Feed each session's event log: the domain events from the bus, and what its pages do (the
 * observer's channel closes with the browser). Returns what stops the bus half, and the phases
 * that observe each session's pages (services.ts subscribes them).
 */
export function logSessionEvents(deps: {
  events: SessionEventLog;
  bus: Bus;
  /** Where each session's requests and console are recorded (the tools, the HAR). */
  networks: SessionNetworks;
  log: Log;
}): { stop: () => void; phases: SessionPhases } {
  const stop = recordBusEvents(deps.bus, deps.events);
  // Not awaited: the session's URLs are not held back for it (its first commands come after).
  const observers = new Map<string, Promise<(() => void) | undefined>>();
  const stopObserving = async (id: string) => {
    const started = observers.get(id);
    observers.delete(id);
    (await started)?.();
  };
  const phases: SessionPhases = {
    live: (session) => {
      const started = observePages(
        session.hub,
        (e) => deps.bus.emit('session.page', { session_id: session.id, ...e }),
        deps.networks.open(session.id),
      ).catch((err: unknown) => {
        deps.log.warn({ err, session_id: session.id }, "the session's pages are not logged");
        return undefined;
      });
      observers.set(session.id, started);
    },
    // At the end's start: what the service itself does in the browser then (reading storage state
    // through a hidden tab) is not the session's doing. afterEnd covers ends without that step.
    beforeEnd: (session) => stopObserving(session.id),
    afterEnd: (id) => stopObserving(id),
  };
  return { stop, phases };
}

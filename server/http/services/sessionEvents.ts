import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sessionEventsRepo } from '../../store/sessionEvents.ts';
import { recordBusEvents } from '../../sessionEvents/fromBus.ts';
import { SessionEventLog } from '../../sessionEvents/log.ts';
import { observePages } from '../../sessionEvents/pageObserver.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessionEvents: SessionEventLog;
  }
}

/** app.sessionEvents: each session's event log, fed from the bus from the first event on. */
export const sessionEventsService = fp(
  async (app: FastifyInstance) => {
    const log = new SessionEventLog(sessionEventsRepo(app.db), (err) =>
      app.log.warn({ err }, 'session event not recorded'),
    );
    app.decorate('sessionEvents', log);
    const unsubscribe = recordBusEvents(app.bus, log);
    app.addHook('onClose', async () => unsubscribe());

    // What the pages do goes into the log too; the observer's channel closes with the browser.
    // Not awaited: the session's URLs are not held back for it (its first commands come after).
    const observers = new Map<string, Promise<(() => void) | undefined>>();
    const stopObserving = async (id: string) => {
      const started = observers.get(id);
      observers.delete(id);
      (await started)?.();
    };
    app.sessions.addLifecycleHooks({
      onLive: (session) => {
        const started = observePages(session.hub, (e) =>
          app.bus.emit('session.page', { session_id: session.id, ...e }),
        ).catch((err: unknown) => {
          app.log.warn({ err, session_id: session.id }, "the session's pages are not logged");
          return undefined;
        });
        observers.set(session.id, started);
      },
      // At the end's start: what the service itself does in the browser then (reading storage state
      // through a hidden tab) is not the session's doing. afterEnd covers ends without that step.
      beforeEnd: (session) => stopObserving(session.id),
      afterEnd: (id) => stopObserving(id),
    });
  },
  { name: 'sessionEvents', dependencies: ['sessions'] },
);

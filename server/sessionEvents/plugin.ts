import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sessionEventsRepo } from '../store/sessionEvents.ts';
import { recordBusEvents } from './fromBus.ts';
import { SessionEventLog } from './log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessionEvents: SessionEventLog;
  }
}

/** app.sessionEvents: each session's event log, fed from the bus from the first event on. */
export const sessionEventsService = fp(
  async (app: FastifyInstance) => {
    const log = new SessionEventLog(sessionEventsRepo(app.db));
    app.decorate('sessionEvents', log);
    const unsubscribe = recordBusEvents(app.bus, log, (err) => app.log.warn({ err }, 'session event not recorded'));
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'sessionEvents' },
);

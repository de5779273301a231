import type { FastifyInstance } from 'fastify';
import { eventOperations, type ServerEvent } from '../../contract/events.ts';
import { addRoute } from '../http/route.ts';
import { openSse } from '../http/sse.ts';

const HEARTBEAT_MS = 15_000;

/** GET /api/events: relays bus events the dashboard refetches on; ids only. */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  // Open streams, ended on server close so app.close() does not wait on them.
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });

  addRoute(app, eventOperations.events, (_input, _req, reply) => {
    const unsubscribe: (() => void)[] = [];
    const sse = openSse(reply, () => {
      clearInterval(heartbeat);
      for (const off of unsubscribe) off();
      open.delete(sse.end);
    });
    const send = (e: ServerEvent) => sse.send(e, e.type);
    unsubscribe.push(
      app.bus.on('session.changed', ({ session_id }) => send({ type: 'session.changed', session_id })),
      app.bus.on('run.step', ({ session_id, index }) => send({ type: 'run.step', session_id, index })),
      app.bus.on('run.completed', ({ session_id, succeeded }) => send({ type: 'run.completed', session_id, succeeded })),
    );
    const heartbeat = setInterval(() => sse.comment('keep-alive'), HEARTBEAT_MS);
    open.add(sse.end);
    sse.comment('connected');
  });
}

import { EventEmitter } from 'node:events';
import type { ServerEvent } from '../../contract/events.ts';
import type { Bus } from './bus.ts';

/**
 * What GET /api/events streams: this node's bus events, mapped to ServerEvent, plus (in a
 * cluster) the other nodes' ones relayed through Postgres (server/cluster/eventRelay.ts). Kept
 * apart from the bus on purpose: a relayed event is news for dashboards only, and must not reach
 * the bus's domain listeners (webhooks, the event log), which the owning node already served.
 */
export class ServerEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit(event: ServerEvent): void {
    this.emitter.emit('event', event);
  }

  on(listener: (event: ServerEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}

/**
 * The bus events dashboards refetch on, as ServerEvent (ids only): the one mapping, used for the
 * local stream and for what this node publishes to the others.
 */
export function onBusServerEvents(bus: Bus, listener: (event: ServerEvent) => void): () => void {
  const offs = [
    bus.on('session.changed', ({ session_id }) => listener({ type: 'session.changed', session_id })),
    // A client joined or left: the session's page says who is connected (GET /api/sessions/{id} clients).
    bus.on('session.client', ({ session_id }) => listener({ type: 'session.changed', session_id })),
    bus.on('run.step', ({ session_id, index }) => listener({ type: 'run.step', session_id, index })),
    bus.on('run.completed', ({ session_id, succeeded }) => listener({ type: 'run.completed', session_id, succeeded })),
  ];
  return () => {
    for (const off of offs) off();
  };
}

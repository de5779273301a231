import type { Bus, BusEvents } from '../events/bus.ts';
import type { WebhookEvent } from '../../contract/runs.ts';

/** The run.completed webhook of a finished run (from the bus, or for a run a crash interrupted). */
export function runCompletedEvent(e: BusEvents['run.completed'], timestamp = new Date().toISOString()): WebhookEvent {
  return {
    type: 'run.completed',
    timestamp,
    data: {
      session_id: e.session_id,
      workflow_id: e.workflow_id,
      outcome: e.succeeded ? 'succeeded' : 'failed',
      message: e.message,
      outputs: e.outputs,
      metadata: e.metadata ?? null,
    },
  };
}

/**
 * Turn domain events into webhooks: session events go to the session's webhook_url, run events to
 * the run's. Events without a webhook_url send nothing. Returns the unsubscribe function.
 */
export function forwardBusToWebhooks(bus: Bus, enqueue: (url: string, event: WebhookEvent) => void): () => void {
  const now = () => new Date().toISOString();
  const metadata = (m: string | undefined) => m ?? null;
  const offs = [
    bus.on('session.started', (e) => {
      if (e.webhook_url) enqueue(e.webhook_url, { type: 'session.started', timestamp: now(), data: { session_id: e.session_id, workflow_id: e.workflow_id, metadata: metadata(e.metadata) } });
    }),
    bus.on('session.ended', (e) => {
      if (e.webhook_url) {
        enqueue(e.webhook_url, {
          type: 'session.ended',
          timestamp: now(),
          data: { session_id: e.session_id, workflow_id: e.workflow_id, outcome: e.reason, metadata: metadata(e.metadata) },
        });
      }
    }),
    bus.on('run.started', (e) => {
      if (e.webhook_url) enqueue(e.webhook_url, { type: 'run.started', timestamp: now(), data: { session_id: e.session_id, workflow_id: e.workflow_id, metadata: metadata(e.metadata) } });
    }),
    bus.on('run.completed', (e) => {
      if (e.webhook_url) enqueue(e.webhook_url, runCompletedEvent(e, now()));
    }),
  ];
  return () => offs.forEach((off) => off());
}

import type { Bus } from '../events/bus.ts';
import type { WebhookEvent } from '../../contract/runs.ts';

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
      if (e.webhook_url) {
        enqueue(e.webhook_url, {
          type: 'run.completed',
          timestamp: now(),
          data: {
            session_id: e.session_id,
            workflow_id: e.workflow_id,
            outcome: e.succeeded ? 'succeeded' : 'failed',
            message: e.message,
            outputs: e.outputs,
            metadata: metadata(e.metadata),
          },
        });
      }
    }),
  ];
  return () => offs.forEach((off) => off());
}

import type { WebhookEvent } from '../../contract/runs.ts';
import type { Bus, BusEvents } from '../events/bus.ts';
import { sessionMetadataOf, workflowMetadataOf } from '../workflows/simplexMetadata.ts';
import { structuredOutputOf } from '../workflows/structuredOutput.ts';
import type { WorkflowRunFacts } from '../domain/runFacts.ts';

/** The Simplex fields of run.completed that come from the run's workflow: outputs typed by its declaration, its metadata as the clients type it. */
export function workflowFieldsOf(outputs: Record<string, string>, workflow: WorkflowRunFacts | undefined) {
  return {
    structured_output: structuredOutputOf(outputs, workflow?.structuredOutput ?? null, new Set(workflow?.aiOutputs)),
    workflow_metadata: workflowMetadataOf(workflow?.metadata),
  };
}

/**
 * The run.completed webhook of a finished run (from the bus, or for a run a crash interrupted): our
 * Standard Webhooks shape, and at the top level the fields Simplex's own webhook carries, so code
 * written against either reads it.
 */
export function runCompletedEvent(e: BusEvents['run.completed'], timestamp = new Date().toISOString()): WebhookEvent {
  const outcome = e.succeeded ? 'succeeded' : 'failed';
  return {
    type: 'run.completed',
    timestamp,
    data: {
      session_id: e.session_id,
      workflow_id: e.workflow_id,
      outcome,
      message: e.message,
      outputs: e.outputs,
      metadata: e.metadata ?? null,
    },
    success: e.succeeded,
    agent_response: e.message,
    session_id: e.session_id,
    workflow_id: e.workflow_id,
    scraper_outputs: e.outputs,
    file_metadata: e.file_metadata ?? [],
    screenshot_url: e.screenshot_url ?? null,
    metadata: e.metadata ?? null,
    session_metadata: sessionMetadataOf(e.metadata),
    ...workflowFieldsOf(e.outputs, e.workflow),
    workflow_result: { outcome, message: e.message, total_actions: e.total_actions ?? 0, steps_run: e.steps_run ?? 0 },
  };
}

/**
 * Turn domain events into webhooks: session events go to the session's webhook_url, run events to
 * the run's. Events without a webhook_url send nothing. Returns the unsubscribe function.
 */
export function forwardBusToWebhooks(bus: Bus, enqueue: (url: string, event: WebhookEvent) => void): () => void {
  const now = () => new Date().toISOString();
  const ids = (e: { session_id: string; workflow_id: string; metadata?: string }) => ({
    session_id: e.session_id,
    workflow_id: e.workflow_id,
    metadata: e.metadata ?? null,
  });
  const offs = [
    bus.on('session.started', (e) => {
      if (e.webhook_url) enqueue(e.webhook_url, { type: 'session.started', timestamp: now(), data: ids(e) });
    }),
    bus.on('session.ended', (e) => {
      if (e.webhook_url)
        enqueue(e.webhook_url, { type: 'session.ended', timestamp: now(), data: { ...ids(e), outcome: e.reason } });
    }),
    bus.on('run.started', (e) => {
      if (e.webhook_url) enqueue(e.webhook_url, { type: 'run.started', timestamp: now(), data: ids(e) });
    }),
    bus.on('run.paused', (e) => {
      if (e.webhook_url) {
        enqueue(e.webhook_url, {
          type: 'run.paused',
          timestamp: now(),
          data: {
            ...ids(e),
            pause_key: e.pause.key,
            pause_type: e.pause.type,
            message: e.pause.message,
            vnc_url: e.vnc_url,
          },
        });
      }
    }),
    bus.on('run.resumed', (e) => {
      if (e.webhook_url)
        enqueue(e.webhook_url, {
          type: 'run.resumed',
          timestamp: now(),
          data: { ...ids(e), pause_key: e.pause.key, pause_type: e.pause.type },
        });
    }),
    bus.on('run.completed', (e) => {
      if (e.webhook_url) enqueue(e.webhook_url, runCompletedEvent(e, now()));
    }),
  ];
  return () => offs.forEach((off) => off());
}

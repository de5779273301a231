import { WebhookEvent } from '../../contract/runs.ts';
import type { Received } from '../fixtures/webhookReceiver.ts';

/** The run.completed webhooks among what a receiver got: each run's session id with its outcomes, one per delivery. */
export function runCompletions(received: readonly Received[]): Map<string, string[]> {
  const outcomes = new Map<string, string[]>();
  for (const r of received) {
    const event = WebhookEvent.parse(JSON.parse(r.body));
    if (event.type !== 'run.completed') continue;
    outcomes.set(event.data.session_id, [...(outcomes.get(event.data.session_id) ?? []), event.data.outcome]);
  }
  return outcomes;
}

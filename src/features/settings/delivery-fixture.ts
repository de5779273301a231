import type { WebhookDelivery } from '../../../contract/webhookDeliveries.ts';

/** For tests: a delivery whose every attempt failed with a 500. */
export const failedDelivery: WebhookDelivery = {
  id: `msg_${'b'.repeat(32)}`,
  event: 'run.completed',
  url: 'https://hooks.example.com/in',
  status: 'failed',
  response_status: 500,
  error: 'destination answered 500',
  attempts: 8,
  created_at: '2026-11-28T08:00:00.000Z',
  last_attempt_at: '2026-11-28T09:00:00.000Z',
  next_attempt_at: null,
  delivered_at: null,
};

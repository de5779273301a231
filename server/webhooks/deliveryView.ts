import type { WebhookDelivery, WebhookDeliveryDetail } from '../../contract/webhookDeliveries.ts';
import type { OutboxRow } from '../store/outbox.ts';

/**
 * A destination as it may be shown: a user and password in the URL are sent as an Authorization
 * header, so they are masked; the rest (the caller's own URL) is shown as given.
 */
export function shownUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL (webhook_url is checked as one before it is stored): nothing of it is shown.
    return '***';
  }
  if (!url.username && !url.password) return raw;
  url.username = '***';
  url.password = '';
  return url.toString();
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An outbox row as GET /webhooks/deliveries lists it (no body). */
export function deliveryOf(row: OutboxRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.type,
    url: shownUrl(row.url),
    status: row.status,
    response_status: row.last_status,
    error: row.last_error,
    attempts: row.attempts,
    created_at: row.created_at,
    last_attempt_at: row.last_attempt_at,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    delivered_at: row.delivered_at,
  };
}

/** One delivery with the exact body it sends. */
export const deliveryDetailOf = (row: OutboxRow): WebhookDeliveryDetail => ({
  ...deliveryOf(row),
  body: row.payload,
});

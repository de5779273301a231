import type { WebhookDelivery } from '../../../contract/webhookDeliveries.ts';

/** A delivery's state in a few words, with the destination's last answer when there was one. */
export function deliveryStatusWords(d: WebhookDelivery): string {
  const answer = d.response_status === null ? '' : ` (${d.response_status})`;
  switch (d.status) {
    case 'delivered':
      return `Delivered${answer}`;
    case 'pending':
      return d.attempts === 0 ? 'Queued' : `Retrying${answer}`;
    case 'failed':
      return `Failed${answer}`;
    case 'disabled':
      return `Destination gone${answer}`;
    case 'refused':
      return 'Refused';
  }
}

/** The badge style of a status (styles.css: live is green, starting amber, failed red). */
export const deliveryBadge = (status: WebhookDelivery['status']) =>
  status === 'delivered' ? 'live' : status === 'pending' ? 'starting' : 'failed';

/** Only these can be sent again by hand (the server answers 409 for the others). */
export const canRetry = (d: WebhookDelivery) => d.status !== 'pending' && d.status !== 'delivered';

/** What a Retry came to, as one sentence for the person who pressed it. */
export function retryOutcomeWords(d: WebhookDelivery): string {
  if (d.status === 'delivered')
    return `Delivered: ${d.event} reached ${d.url}, which answered ${d.response_status ?? 'with success'}.`;
  const why = d.error ?? (d.response_status === null ? 'no answer' : `answered ${d.response_status}`);
  return `Not delivered: ${d.event} to ${d.url} failed again (${why}). Nothing more is sent on its own; retry once the receiver is fixed.`;
}

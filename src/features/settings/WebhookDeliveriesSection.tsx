import { Fragment, useState } from 'react';
import type { WebhookDelivery } from '../../../contract/webhookDeliveries.ts';
import { useWebhookDeliveries } from '../../api/webhooks/get-webhook-deliveries.ts';
import { useRetryWebhookDelivery } from '../../api/webhooks/retry-webhook-delivery.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { When } from '../../components/When.tsx';
import { canRetry, deliveryBadge, deliveryStatusWords, retryOutcomeWords } from './delivery-words.ts';
import { LoadStatus } from './LoadStatus.tsx';
import { WebhookDeliveryBody } from './WebhookDeliveryBody.tsx';
import './webhook-deliveries.css';

const COLUMNS = 6;

/**
 * The webhook outbox (GET /webhooks/deliveries): every event sent to a webhook_url, newest first,
 * with its last answer and attempts. A row's event opens its body; a dead delivery (failed, its
 * destination gone with a 410, refused) has Retry, which sends it once now and says how that went.
 * The table scrolls inside its own box on a phone rather than widening the page.
 */
export function WebhookDeliveriesSection({ connected }: { connected: boolean }) {
  const deliveries = useWebhookDeliveries(connected);
  const retry = useRetryWebhookDelivery();
  const [open, setOpen] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const items = deliveries.data?.pages.flatMap((p) => p.items) ?? [];

  const retryNow = (d: WebhookDelivery) => {
    setOutcome(null);
    retry.mutate(d.id, {
      onSuccess: (after) => setOutcome({ ok: after.status === 'delivered', text: retryOutcomeWords(after) }),
    });
  };

  return (
    <section className="card" aria-labelledby="webhook-deliveries-title">
      <h2 id="webhook-deliveries-title">Webhook deliveries</h2>
      <p>
        Every event sent to a session&apos;s or run&apos;s <code>webhook_url</code>, newest first, with the
        destination&apos;s last answer. Failed deliveries are retried on a schedule for about a day; Retry sends one
        again now, to the same URL.
      </p>
      <LoadStatus
        connected={connected}
        query={deliveries}
        needsKeyTo="see the webhooks this server sent"
        loading="Loading deliveries…"
        failed="Could not load the deliveries."
      />
      {retry.isError && <ErrorNotice error={retry.error} title="The delivery was not retried." />}
      {outcome && (
        <p className={`notice ${outcome.ok ? 'ok' : 'warn'}`} role="status">
          {outcome.text}
        </p>
      )}
      {deliveries.isSuccess && items.length === 0 && (
        <p className="status">
          No webhooks sent yet. They appear here once a session or run started with a <code>webhook_url</code> reports
          an event.
        </p>
      )}
      {items.length > 0 && (
        <div className="table-wrap deliveries-scroll" role="region" aria-label="Webhook deliveries table" tabIndex={0}>
          <table className="deliveries">
            <caption className="visually-hidden">
              Webhook deliveries, newest first. Open an event to see the body that was sent.
            </caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last attempt</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => {
                const opened = open === d.id;
                const bodyId = `delivery-body-${d.id}`;
                const eventId = `delivery-event-${d.id}`;
                return (
                  <Fragment key={d.id}>
                    <tr className={opened ? 'opened' : undefined}>
                      <td>
                        <button
                          type="button"
                          className="link delivery-event"
                          id={eventId}
                          aria-expanded={opened}
                          aria-controls={opened ? bodyId : undefined}
                          onClick={() => setOpen(opened ? null : d.id)}
                        >
                          <span aria-hidden="true">{opened ? '▾' : '▸'}</span> {d.event}
                        </button>
                      </td>
                      <td className="delivery-url">{d.url}</td>
                      <td>
                        <span className={`badge ${deliveryBadge(d.status)}`}>{deliveryStatusWords(d)}</span>
                      </td>
                      <td className="numeric">{d.attempts}</td>
                      <td>
                        {d.last_attempt_at ? (
                          <When iso={d.last_attempt_at} />
                        ) : d.status === 'pending' ? (
                          'Not yet'
                        ) : (
                          'Never'
                        )}
                      </td>
                      <td>
                        {canRetry(d) && (
                          <button
                            type="button"
                            className="secondary small"
                            aria-describedby={eventId}
                            disabled={retry.isPending}
                            onClick={() => retryNow(d)}
                          >
                            {retry.isPending && retry.variables === d.id ? 'Retrying…' : 'Retry'}
                          </button>
                        )}
                      </td>
                    </tr>
                    {opened && (
                      <tr id={bodyId} className="delivery-detail">
                        <td colSpan={COLUMNS}>
                          <WebhookDeliveryBody id={d.id} titleId={eventId} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.hasNextPage && (
        <button
          type="button"
          className="secondary small"
          disabled={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          {deliveries.isFetchingNextPage ? 'Loading…' : 'Show older deliveries'}
        </button>
      )}
    </section>
  );
}

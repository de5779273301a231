import { useWebhookDelivery } from '../../api/webhooks/get-webhook-deliveries.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { When } from '../../components/When.tsx';

/** The body as sent, indented when it is JSON (it always is; the raw text otherwise). */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** An opened delivery: why its last attempt failed, when it is tried next, and the body it sends. */
export function WebhookDeliveryBody({ id, titleId }: { id: string; titleId: string }) {
  const delivery = useWebhookDelivery(id);
  if (delivery.isPending)
    return (
      <p className="status" role="status">
        Loading the body…
      </p>
    );
  if (delivery.isError) return <ErrorNotice error={delivery.error} title="Could not read this delivery." />;
  const d = delivery.data;
  return (
    <div className="delivery-body">
      <dl>
        <dt>Delivery id (webhook-id)</dt>
        <dd>
          <code>{d.id}</code>
        </dd>
        <dt>Queued</dt>
        <dd>
          <When iso={d.created_at} />
        </dd>
        {d.error && (
          <>
            <dt>Last error</dt>
            <dd>{d.error}</dd>
          </>
        )}
        {d.next_attempt_at && (
          <>
            <dt>Next attempt</dt>
            <dd>
              <When iso={d.next_attempt_at} />
            </dd>
          </>
        )}
      </dl>
      <pre className="code-scroll scroll-block" tabIndex={0} aria-labelledby={titleId}>
        {readable(d.body)}
      </pre>
    </div>
  );
}

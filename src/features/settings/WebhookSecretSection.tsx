import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useWebhookSecret, webhookSecretQueryOptions } from '../../api/webhooks/get-webhook-secret.ts';
import { useRotateWebhookSecret } from '../../api/webhooks/rotate-webhook-secret.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

/** What stands in for the secret while it is hidden: its shape, none of its characters. */
const MASK = 'whsec_' + '•'.repeat(24);

/**
 * The secret every webhook is signed with (README.md, Simplex's clients, Webhooks): hidden until asked for, copied
 * without being shown if wished, and rotated after a leak. It is fetched only on Reveal or Copy.
 */
export function WebhookSecretSection({ connected }: { connected: boolean }) {
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState(false);
  const secret = useWebhookSecret(connected && revealed);
  const rotate = useRotateWebhookSecret();
  const fetchSecret = async () => (await queryClient.fetchQuery(webhookSecretQueryOptions())).secret;

  const confirmRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: () => {
        setRotated(true);
        // The person has to hand the new secret on, so it is shown at once.
        setRevealed(true);
      },
      onSettled: () => setConfirming(false),
    });

  return (
    <section className="card" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">Webhook signing secret</h2>
      <p>
        Every webhook is signed with this secret: receivers check the <code>webhook-signature</code> header with any
        Standard Webhooks library, or <code>X-Simplex-Signature</code> with Simplex&apos;s verifier. Keep it as private
        as the API key.
      </p>
      {!connected && <p className="status">Save an API key above to see this server&apos;s secret.</p>}
      {connected && (
        <>
          <p>
            <code
              id="webhook-secret-value"
              aria-label={revealed ? 'Webhook signing secret' : 'Webhook signing secret (hidden)'}
              style={{ overflowWrap: 'anywhere' }}
            >
              {revealed && secret.data ? secret.data.secret : MASK}
            </code>
            {revealed && secret.isPending && (
              <span className="status" role="status">
                {' '}
                Loading…
              </span>
            )}
          </p>
          <div className="row">
            <button
              type="button"
              className="secondary small"
              aria-controls="webhook-secret-value"
              aria-pressed={revealed}
              onClick={() => setRevealed((r) => !r)}
            >
              {revealed ? 'Hide secret' : 'Reveal secret'}
            </button>
            <CopyButton text={fetchSecret} label="Copy secret" />
            <button type="button" className="danger small" onClick={() => setConfirming(true)}>
              Rotate secret…
            </button>
          </div>
          {secret.isError && <ErrorNotice error={secret.error} title="Could not read the secret." />}
          {rotate.isError && <ErrorNotice error={rotate.error} title="The secret was not rotated." />}
          {rotated && (
            <p className="notice ok" role="status">
              Rotated. Webhooks are now signed with the new secret shown above; give it to your receivers.
            </p>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Rotate the webhook signing secret?"
        confirmLabel="Rotate secret"
        busy={rotate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmRotate}
      >
        <p>
          A new secret replaces this one at once. Every webhook from then on, retries of earlier ones included, is
          signed with the new secret, so receivers that still check the old one will reject them until you give them the
          new one. The old secret cannot be brought back.
        </p>
      </ConfirmDialog>
    </section>
  );
}

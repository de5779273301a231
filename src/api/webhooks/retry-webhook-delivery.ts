import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WebhookDelivery } from '../../../contract/webhookDeliveries.ts';
import { apiJson } from '../client.ts';
import { webhookKeys } from './keys.ts';

/** One attempt now; the answer is the delivery after it (delivered, or failed again and why). */
export const retryWebhookDelivery = (id: string) =>
  apiJson(`/webhooks/deliveries/${encodeURIComponent(id)}/retry`, WebhookDelivery, { method: 'POST' });

export function useRetryWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryWebhookDelivery,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries() }),
  });
}

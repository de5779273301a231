import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WebhookSecret } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';
import { webhookSecretQueryOptions } from './get-webhook-secret.ts';

export const rotateWebhookSecret = () => apiJson('/webhooks/secret/rotate', WebhookSecret, { method: 'POST' });

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: (answer) => queryClient.setQueryData(webhookSecretQueryOptions().queryKey, answer),
  });
}

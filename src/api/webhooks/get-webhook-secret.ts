import { queryOptions, useQuery } from '@tanstack/react-query';
import { WebhookSecret } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';
import { webhookKeys } from './keys.ts';

export const getWebhookSecret = (signal?: AbortSignal) => apiJson('/webhooks/secret', WebhookSecret, { signal });

export const webhookSecretQueryOptions = () =>
  // Fetched only when asked for (reveal or copy) and not kept once unused, so the secret is not sitting in the page.
  queryOptions({
    queryKey: webhookKeys.secret(),
    queryFn: ({ signal }) => getWebhookSecret(signal),
    staleTime: Infinity,
    gcTime: 0,
  });

export const useWebhookSecret = (enabled: boolean) => useQuery({ ...webhookSecretQueryOptions(), enabled });

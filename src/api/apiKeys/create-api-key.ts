import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedApiKey, type CreateApiKeyRequest } from '../../../contract/apiKeys.ts';
import { apiJson } from '../client.ts';
import { apiKeyKeys } from './keys.ts';

/** Make a key; the answer holds it once, and it is kept nowhere but the caller's screen. */
export const createApiKey = (body: CreateApiKeyRequest) => apiJson('/keys', CreatedApiKey, { method: 'POST', body });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

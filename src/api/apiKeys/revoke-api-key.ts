import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiKeyInfo } from '../../../contract/apiKeys.ts';
import { apiJson } from '../client.ts';
import { apiKeyKeys } from './keys.ts';

export const revokeApiKey = (id: string) =>
  apiJson(`/keys/${encodeURIComponent(id)}`, ApiKeyInfo, { method: 'DELETE' });

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StoreCredentialResponse, type StoreCredentialInput } from '../../../contract/credentials.ts';
import { apiJson } from '../client.ts';
import { credentialKeys } from './keys.ts';

/** Store a value under a name (and the origins it may be typed into); an existing name has its value replaced. */
export const storeCredential = (input: StoreCredentialInput) =>
  apiJson('/store_credential', StoreCredentialResponse, { method: 'POST', body: input });

export function useStoreCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storeCredential,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialKeys.list() }),
  });
}

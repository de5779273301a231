import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeleteCredentialResponse } from '../../../contract/credentials.ts';
import { apiJson } from '../client.ts';
import { credentialKeys } from './keys.ts';

export const deleteCredential = (name: string) =>
  apiJson('/delete_credential', DeleteCredentialResponse, { method: 'POST', body: { name } });

export function useDeleteCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCredential,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialKeys.list() }),
  });
}

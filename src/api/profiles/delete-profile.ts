import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeleteProfileResponse } from '../../../contract/profiles.ts';
import { apiJson } from '../client.ts';
import { profilePath } from './get-profile.ts';
import { profileKeys } from './keys.ts';

/** Deletes the profile and every version of it; 409 (naming the session) while a session uses it. */
export const deleteProfile = (name: string) => apiJson(profilePath(name), DeleteProfileResponse, { method: 'DELETE' });

export function useDeleteProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProfile,
    // The list only: the deleted profile's own query would refetch to a 404 while its page is still open.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.list() }),
  });
}

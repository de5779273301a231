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
    onSuccess: (_answer, name) => {
      queryClient.removeQueries({ queryKey: profileKeys.one(name) });
      return queryClient.invalidateQueries({ queryKey: profileKeys.list() });
    },
  });
}

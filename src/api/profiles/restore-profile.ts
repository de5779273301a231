import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Profile } from '../../../contract/profiles.ts';
import { apiJson } from '../client.ts';
import { profilePath } from './get-profile.ts';
import { profileKeys } from './keys.ts';

/** Copies an older version as the newest (nothing is lost but the oldest kept one, when all are in use). */
export const restoreProfile = ({ name, version }: { name: string; version: number }) =>
  apiJson(`${profilePath(name)}/restore`, Profile, { method: 'POST', body: { version } });

export function useRestoreProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileKeys.one(profile.name), profile);
      return queryClient.invalidateQueries({ queryKey: profileKeys.list() });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Profile, type CreateProfileRequest } from '../../../contract/profiles.ts';
import { apiJson } from '../client.ts';
import { profileKeys } from './keys.ts';

/** A new profile, empty or from a Playwright storage state (imported as version 1); 409 when the name is taken. */
export const createProfile = (body: CreateProfileRequest) => apiJson('/profiles', Profile, { method: 'POST', body });

export function useCreateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.list() }),
  });
}

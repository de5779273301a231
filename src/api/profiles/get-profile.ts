import { useQuery } from '@tanstack/react-query';
import { Profile } from '../../../contract/profiles.ts';
import { apiJson } from '../client.ts';
import { profileKeys } from './keys.ts';

export const profilePath = (name: string) => `/profiles/${encodeURIComponent(name)}`;

export const getProfile = (name: string, signal?: AbortSignal) => apiJson(profilePath(name), Profile, { signal });

export const useProfile = (name: string) =>
  useQuery({ queryKey: profileKeys.one(name), queryFn: ({ signal }) => getProfile(name, signal) });

import { queryOptions, useQuery } from '@tanstack/react-query';
import { ListProfilesResponse } from '../../../contract/profiles.ts';
import { apiJson } from '../client.ts';
import { profileKeys } from './keys.ts';

/** Every profile, by name: sizes, versions, last use and the sessions using it (never its contents). */
export const getProfiles = (signal?: AbortSignal) => apiJson('/profiles', ListProfilesResponse, { signal });

export const profilesQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.list(), queryFn: ({ signal }) => getProfiles(signal) });

export const useProfiles = (enabled = true) => useQuery({ ...profilesQueryOptions(), enabled });

import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiKeyList } from '../../../contract/apiKeys.ts';
import { apiJson } from '../client.ts';
import { apiKeyKeys } from './keys.ts';

/** The server's API keys, active and revoked; never a key or its hash. */
export const getApiKeys = (signal?: AbortSignal) => apiJson('/keys', ApiKeyList, { signal });

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => getApiKeys(signal) });

export const useApiKeys = (enabled = true) => useQuery({ ...apiKeysQueryOptions(), enabled });

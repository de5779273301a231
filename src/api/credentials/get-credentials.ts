import { queryOptions, useQuery } from '@tanstack/react-query';
import { ListCredentialsResponse } from '../../../contract/credentials.ts';
import { apiJson } from '../client.ts';
import { credentialKeys } from './keys.ts';

/** Names and dates only: the server never sends a value back. */
export const getCredentials = (signal?: AbortSignal) =>
  apiJson('/list_credentials', ListCredentialsResponse, { signal });

export const credentialsQueryOptions = () =>
  queryOptions({ queryKey: credentialKeys.list(), queryFn: ({ signal }) => getCredentials(signal) });

export const useCredentials = (enabled = true) => useQuery({ ...credentialsQueryOptions(), enabled });

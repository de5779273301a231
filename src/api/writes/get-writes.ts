import { queryOptions, useQuery } from '@tanstack/react-query';
import { WritesPage } from '../../../contract/write.ts';
import { apiJson } from '../client.ts';
import { writeKeys } from './keys.ts';

export const getWrites = (limit = 20, signal?: AbortSignal) =>
  apiJson('/writes', WritesPage, { query: { limit }, signal });

export const writesQueryOptions = (limit = 20) =>
  queryOptions({ queryKey: writeKeys.list(limit), queryFn: ({ signal }) => getWrites(limit, signal) });

export const useWrites = (limit = 20) => useQuery(writesQueryOptions(limit));

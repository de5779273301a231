import { queryOptions, useQuery } from '@tanstack/react-query';
import { WorkflowsPage } from '../../../contract/workflows.ts';
import { apiJson } from '../client.ts';
import { workflowKeys } from './keys.ts';

export const getWorkflows = (limit = 100, signal?: AbortSignal) =>
  apiJson('/workflows', WorkflowsPage, { query: { limit }, signal });

export const workflowsQueryOptions = (limit = 100) =>
  queryOptions({ queryKey: workflowKeys.list(limit), queryFn: ({ signal }) => getWorkflows(limit, signal) });

export const useWorkflows = (limit = 100) => useQuery(workflowsQueryOptions(limit));

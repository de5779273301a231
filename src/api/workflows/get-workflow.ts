import { queryOptions, useQuery } from '@tanstack/react-query';
import { WorkflowAsSent } from '../../../contract/workflows.ts';
import { apiJson } from '../client.ts';
import { workflowKeys } from './keys.ts';

export const getWorkflow = (id: string, signal?: AbortSignal) =>
  apiJson(`/workflows/${encodeURIComponent(id)}`, WorkflowAsSent, { signal });

export const workflowQueryOptions = (id: string) =>
  queryOptions({ queryKey: workflowKeys.one(id), queryFn: ({ signal }) => getWorkflow(id, signal) });

export const useWorkflow = (id: string | undefined) =>
  useQuery({ ...workflowQueryOptions(id ?? ''), enabled: Boolean(id) });

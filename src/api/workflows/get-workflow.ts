import { queryOptions, useQuery } from '@tanstack/react-query';
import { WorkflowAsSent } from '../../../contract/workflows.ts';
import { apiJson } from '../client.ts';

export const getWorkflow = (id: string, signal?: AbortSignal) => apiJson(`/workflows/${encodeURIComponent(id)}`, WorkflowAsSent, { signal });

export const workflowQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['workflows', 'one', id], queryFn: ({ signal }) => getWorkflow(id, signal) });

export const useWorkflow = (id: string | undefined) => useQuery({ ...workflowQueryOptions(id ?? ''), enabled: Boolean(id) });

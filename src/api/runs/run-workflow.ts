import { useMutation } from '@tanstack/react-query';
import { RunWorkflowResponse, type RunWorkflowFields } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';

/** POST /run_workflow as multipart/form-data (spec 2.5): the text fields, then each file as `files`. */
export function runWorkflow({ fields, files }: { fields: RunWorkflowFields; files: File[] }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  for (const f of files) form.append('files', f, f.name);
  // 503 carries the spec's answer with succeeded false and a message: a result, not a crash.
  return apiJson('/run_workflow', RunWorkflowResponse, { method: 'POST', body: form, answerStatuses: [503] });
}

export const useRunWorkflow = () => useMutation({ mutationFn: runWorkflow });

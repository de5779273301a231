import type { ScriptFormat } from '../../../contract/workflowCode.ts';
import { apiFetch } from '../client.ts';

/** The saved workflow as a runnable script (GET /workflow/{id}/code). */
export async function getWorkflowCode(id: string, format: ScriptFormat): Promise<string> {
  const res = await apiFetch(`/workflow/${encodeURIComponent(id)}/code`, { query: { format } });
  return res.text();
}

import { StartEditorSessionRequest } from '../../../contract/agent.ts';
import type { StartEditorSessionBody } from '../../api/agent/start-editor-session.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';

/** The start form's inputs as typed: test data as key/value rows (empty rows are left out). */
export interface AgentStartValues {
  name: string;
  url: string;
  test_data: { key: string; value: string }[];
}

export const AGENT_START_FIELDS = ['name', 'url', 'test_data'] as const;

export const agentStartDefaults: AgentStartValues = { name: '', url: '', test_data: [] };

/** The request from the form: trimmed address, rows with neither key nor value dropped, values as typed text. */
export function toStartRequest(v: AgentStartValues): StartEditorSessionBody {
  const rows = v.test_data.filter((r) => r.key.trim() !== '' || r.value !== '');
  return {
    name: v.name,
    url: v.url.trim(),
    ...(rows.length ? { test_data: Object.fromEntries(rows.map((r) => [r.key.trim(), r.value])) } : {}),
  };
}

export const agentStartResolver = contractResolver(StartEditorSessionRequest, toStartRequest);

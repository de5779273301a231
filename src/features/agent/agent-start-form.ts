import { StartEditorSessionRequest } from '../../../contract/agent.ts';
import type { StartEditorSessionBody } from '../../api/agent/start-editor-session.ts';
import { profileChoiceDefaults, profileUse, type ProfileChoiceValues } from '../../components/profile-choice.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';

/** The start form's inputs as typed: test data as key/value rows (empty rows are left out). */
export interface AgentStartValues extends ProfileChoiceValues {
  name: string;
  url: string;
  test_data: { key: string; value: string }[];
}

export const AGENT_START_FIELDS = ['name', 'url', 'test_data', 'profile'] as const;

export const agentStartDefaults: AgentStartValues = { name: '', url: '', test_data: [], ...profileChoiceDefaults };

/** The request from the form: trimmed address, rows with neither key nor value dropped, values as typed text, the profile when one is chosen. */
export function toStartRequest(v: AgentStartValues): StartEditorSessionBody {
  const rows = v.test_data.filter((r) => r.key.trim() !== '' || r.value !== '');
  const profile = profileUse(v);
  return {
    name: v.name,
    url: v.url.trim(),
    ...(rows.length ? { test_data: Object.fromEntries(rows.map((r) => [r.key.trim(), r.value])) } : {}),
    ...(profile ? { profile } : {}),
  };
}

const byContract = contractResolver(StartEditorSessionRequest, toStartRequest);

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The first test-data row whose name is no variable name, in words (the contract's record says only "Invalid key"). */
export function badVariableName(rows: AgentStartValues['test_data']): string | undefined {
  const bad = rows.find((r) => (r.key.trim() !== '' || r.value !== '') && !VARIABLE_NAME.test(r.key.trim()));
  if (!bad) return undefined;
  return bad.key.trim() === ''
    ? 'A variable with a value needs a name.'
    : `“${bad.key.trim()}” is not a variable name: use letters, digits and _, not starting with a digit.`;
}

export const agentStartResolver: typeof byContract = async (values, context, options) => {
  const result = await byContract(values, context, options);
  const bad = badVariableName(values.test_data);
  if (!bad) return result;
  return { values: {}, errors: { ...result.errors, test_data: { type: 'validate', message: bad } } };
};

import type { FieldErrors, Resolver } from 'react-hook-form';
import { RunWorkflowFields } from '../../../contract/runs.ts';
import type { Variable } from '../../../contract/variables.ts';
import { profileUse, type ProfileChoiceValues } from '../profile-choice.ts';
import { inWords } from '../../lib/field-messages.ts';

/**
 * The Run form. With a known variables schema each variable is its own input (`vars.<name>`);
 * without one (a server with no workflow endpoints) variables are typed as a JSON object.
 */
export interface RunFormValues extends ProfileChoiceValues {
  workflow_id: string;
  vars: Record<string, string | boolean>;
  variablesJson: string;
  metadata: string;
  webhook_url: string;
}

export interface RunFormContext {
  /** The workflow's variables schema, or null when unknown. */
  schema: Variable[] | null;
}

/** The schema the resolver validates variables with: one object for the form's life, kept current. */
export class SchemaHolder implements RunFormContext {
  schema: RunFormContext['schema'] = null;
  set(schema: RunFormContext['schema']) {
    this.schema = schema;
  }
}

/** The run form's fields a server's 422 issue may name; others are the form's own (root) error. */
type IssueField =
  `vars.${string}` | 'variablesJson' | 'workflow_id' | 'metadata' | 'webhook_url' | 'profile' | 'persist_profile';
const ISSUE_FIELDS = new Set(['workflow_id', 'metadata', 'webhook_url', 'profile', 'persist_profile']);

/**
 * Where a run's 422 issue (`variables.email`, `metadata`…) goes in the form: beside the variable's
 * own input when the schema gave each one, else beside the field it names, else the form's error.
 */
export function issueField(
  issue: { path: string; message: string },
  hasSchema: boolean,
): { field: IssueField | 'root.server'; message: string } {
  const [head = '', ...rest] = issue.path.split('.');
  if (head === 'variables' && hasSchema && rest[0]) return { field: `vars.${rest[0]}`, message: issue.message };
  if (head === 'variables') return { field: 'variablesJson', message: issue.message };
  if (ISSUE_FIELDS.has(head)) return { field: head as IssueField, message: issue.message };
  return { field: 'root.server', message: `${issue.path}: ${issue.message}` };
}

/** A variable whose value is a secret (a recorded password's placeholder, or named like one): typed hidden. */
export function isSecretVariable(v: Variable): boolean {
  return (
    /pass(word)?|passwd|secret|token|otp|api_?key|(^|_)pin($|_)/i.test(v.name) || /password/i.test(v.description ?? '')
  );
}

/** The inputs' first values: each variable's default ('' when none; an enum's select then shows its empty choice). */
export function initialVars(schema: Variable[]): Record<string, string | boolean> {
  return Object.fromEntries(
    schema.map((v) => [
      v.name,
      v.type === 'boolean' ? v.default === true : v.default === undefined ? '' : String(v.default),
    ]),
  );
}

/** Typed variable values from the inputs, plus a message for each bad one. */
export function collectVariables(
  schema: Variable[],
  vars: RunFormValues['vars'],
): { values: Record<string, unknown>; errors: Record<string, string> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const v of schema) {
    const raw = vars[v.name];
    if (v.type === 'boolean') {
      values[v.name] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw : '';
    if (text === '') {
      if (v.required && v.default === undefined) errors[v.name] = `${v.name} is required`;
      continue;
    }
    if (v.type === 'number') {
      const n = Number(text);
      if (!Number.isFinite(n)) errors[v.name] = `${v.name} must be a number`;
      else values[v.name] = n;
    } else if (v.type === 'enum' && !v.enumValues?.includes(text))
      errors[v.name] = `${v.name} must be one of: ${(v.enumValues ?? []).join(', ')}`;
    else values[v.name] = text;
  }
  return { values, errors };
}

/** The multipart text fields, validated with the contract's RunWorkflowFields. */
export const runResolver: Resolver<RunFormValues, RunFormContext, RunWorkflowFields> = (values, context) => {
  const errors: Record<string, unknown> = {};
  const schema = context?.schema ?? null;
  let variables: string | undefined;
  if (schema) {
    const collected = collectVariables(schema, values.vars);
    const varErrors = Object.fromEntries(
      Object.entries(collected.errors).map(([k, m]) => [k, { type: 'validate', message: inWords(k, m) }]),
    );
    if (Object.keys(varErrors).length) errors.vars = varErrors;
    variables = schema.length ? JSON.stringify(collected.values) : undefined;
  } else if (values.variablesJson.trim()) variables = values.variablesJson;

  const profile = profileUse(values);
  const candidate = {
    workflow_id: values.workflow_id.trim(),
    metadata: values.metadata.trim() ? values.metadata : undefined,
    webhook_url: values.webhook_url.trim() ? values.webhook_url.trim() : undefined,
    variables,
    // Multipart fields are text: the profile's name, and "true" or "false".
    profile: profile?.name,
    persist_profile: profile && String(profile.persist),
  };
  const parsed = RunWorkflowFields.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'workflow_id');
      const key = field === 'variables' ? 'variablesJson' : field;
      // Beside the field a person reads a sentence about it, not the wire's "workflow_id must be …".
      const message =
        field === 'workflow_id' && candidate.workflow_id === ''
          ? 'Choose a workflow to run.'
          : inWords(issue.path.map(String), issue.message);
      errors[key] ??= { type: 'validate', message };
    }
  }
  if (Object.keys(errors).length || !parsed.success)
    return { values: {}, errors: errors as FieldErrors<RunFormValues> };
  return { values: parsed.data, errors: {} };
};

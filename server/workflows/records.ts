import { flowAsGiven, Variable, variableAsSent, type VariableAsSent, type Workflow } from '../../contract/workflows.ts';
import type { WorkflowRow } from '../store/workflows.ts';
import { z } from 'zod';

const Variables = z.array(Variable);

/** A stored variables column (validated when written) as answered: `defaultValue` beside `default`, for Simplex's clients. */
export const variablesOf = (json: string): VariableAsSent[] => Variables.parse(JSON.parse(json)).map(variableAsSent);

/** A stored row as the contract's Workflow (the JSON columns were validated when written). */
export function toWorkflow(row: WorkflowRow): Workflow {
  return {
    id: row.id,
    name: row.name,
    flow: flowAsGiven(JSON.parse(row.flow)),
    variables: variablesOf(row.variables),
    metadata: row.metadata,
    structured_output: row.structured_output === null ? null : JSON.parse(row.structured_output),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The JSON text to store for a request's flow: the flow as the request sent it (the route has
 * validated it), since the parsed copy has its keys in the schema's order, not the Recorder's.
 */
export function storedFlowOf(requestBody: unknown): string {
  return JSON.stringify(flowAsGiven((requestBody as { flow?: unknown } | null)?.flow));
}

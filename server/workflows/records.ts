import { flowAsGiven } from '../../contract/steps.ts';
import { variableAsSent, type VariableAsSent } from '../../contract/variables.ts';
import type { Workflow } from '../../contract/workflows.ts';
import { workflowColumns, type WorkflowRow } from '../store/workflows.ts';

/** A stored variables column as answered: `defaultValue` beside `default`, for Simplex's clients. */
export const variablesOf = (json: string): VariableAsSent[] => workflowColumns.variables.read(json).map(variableAsSent);

/** A stored row as the contract's Workflow. */
export function toWorkflow(row: WorkflowRow): Workflow {
  return {
    id: row.id,
    name: row.name,
    flow: workflowColumns.flow.read(row.flow),
    variables: variablesOf(row.variables),
    metadata: row.metadata,
    structured_output:
      row.structured_output === null ? null : workflowColumns.structuredOutput.read(row.structured_output),
    // Only when set: the workflow keeps the exact shape Simplex's clients know when it has none.
    ...(row.profile === null ? {} : { profile: workflowColumns.profile.readOr(row.profile, null) }),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The JSON text to store for a request's flow: the flow as the request sent it (the route has
 * validated it), since the parsed copy has its keys in the schema's order, not the Recorder's.
 */
export function storedFlowOf(requestBody: unknown): string {
  return workflowColumns.flow.write(flowAsGiven((requestBody as { flow?: unknown } | null)?.flow));
}

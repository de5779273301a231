import { Flow, Variable, type Workflow } from '../../contract/workflows.ts';
import type { WorkflowRow } from '../store/workflows.ts';
import { z } from 'zod';

const Variables = z.array(Variable);

/** A stored row as the contract's Workflow (the JSON columns were validated when written). */
export function toWorkflow(row: WorkflowRow): Workflow {
  return {
    id: row.id,
    name: row.name,
    flow: Flow.parse(JSON.parse(row.flow)),
    variables: Variables.parse(JSON.parse(row.variables)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

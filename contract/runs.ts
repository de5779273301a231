import { defineOperations } from './operation.ts';

// Filled by the workflows work (issue 4): run_workflow, run_workflow_status, webhook secret.
export const runOperations = defineOperations({});

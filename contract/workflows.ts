import { defineOperations } from './operation.ts';

// Filled by the workflows work (issue 4): workflow CRUD and the Recorder flow schema.
export const workflowOperations = defineOperations({});

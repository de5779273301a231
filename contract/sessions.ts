import { defineOperations } from './operation.ts';

// Filled by the sessions work (issue 3): create_workflow_session, sessions list/get/end.
export const sessionOperations = defineOperations({});

import { z } from 'zod';
import { defineOperations } from './operation.ts';
import { SessionIdParams } from './sessionEvents.ts';
import { WorkflowParams } from './workflows.ts';

/**
 * A saved workflow as a script to keep: Puppeteer or Playwright, for Node. Variables become the
 * script's parameters (--NAME VALUE or VAR_NAME), credentials environment variables
 * (CREDENTIAL_NAME; never their values), AI steps TODOs, a pause a wait for Enter.
 */

export const ScriptFormat = z
  .enum(['puppeteer', 'playwright'], { error: 'format must be puppeteer or playwright' })
  .default('puppeteer')
  .describe('The library the script drives the browser with (default puppeteer)');
export type ScriptFormat = z.output<typeof ScriptFormat>;

export const WorkflowCodeQuery = z.object({ format: ScriptFormat });

export const GeneratedCodeResponse = z.object({
  succeeded: z.literal(true),
  session_id: z.uuid(),
  workflow_id: z.uuid(),
  format: z.enum(['puppeteer', 'playwright']),
  filename: z.string().describe('A file name for the script'),
  code: z.string().describe('The script (CommonJS, Node 18 or later)'),
});
export type GeneratedCodeResponse = z.infer<typeof GeneratedCodeResponse>;

export const workflowCodeOperations = defineOperations({
  workflowCode: {
    operationId: 'workflowCode',
    method: 'get',
    path: '/workflow/{id}/code',
    summary:
      'A workflow as a runnable Node script (Puppeteer or Playwright): variables are its parameters, credentials environment variables (never their values), AI steps marked TODOs. Content-Disposition names a file',
    tags: ['workflows'],
    params: WorkflowParams,
    query: WorkflowCodeQuery,
    responses: { 200: { description: 'The script', contentType: 'text/javascript', schema: z.string() } },
    errors: [401, 404, 422],
  },
  retrieveGeneratedCode: {
    operationId: 'retrieveGeneratedCode',
    method: 'get',
    path: '/retrieve_generated_code/{id}',
    summary:
      "The script of a session's workflow (a run's, or what an editor session has recorded so far), as saved now; Simplex's name for it",
    tags: ['workflows'],
    params: SessionIdParams,
    query: WorkflowCodeQuery,
    responses: { 200: { description: 'The script and its workflow', schema: GeneratedCodeResponse } },
    errors: [401, 404, 422],
  },
});

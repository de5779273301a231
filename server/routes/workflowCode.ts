import type { FastifyInstance } from 'fastify';
import { workflowCodeOperations as ops } from '../../contract/workflowCode.ts';
import { addRoute } from '../http/route.ts';
import { scriptFileName, workflowScript } from '../workflows/code/workflowScript.ts';

/** Workflows as code: a saved workflow's script, by workflow or by a session of it (server/workflows/code/). */
export async function workflowCodeRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, ops.workflowCode, async ({ params, query }, _req, reply) => {
    const workflow = await app.workflows.get(params.id);
    const code = await workflowScript(workflow, query.format);
    return reply
      .type('text/javascript; charset=utf-8')
      .header('content-disposition', `inline; filename="${scriptFileName(workflow, query.format)}"`)
      .send(code);
  });

  addRoute(app, ops.retrieveGeneratedCode, async ({ params, query }) => {
    const session = await app.sessionRecords.get(params.id);
    const workflow = await app.workflows.get(session.workflow_id);
    return {
      succeeded: true as const,
      session_id: session.id,
      workflow_id: workflow.id,
      format: query.format,
      filename: scriptFileName(workflow, query.format),
      code: await workflowScript(workflow, query.format),
    };
  });
}

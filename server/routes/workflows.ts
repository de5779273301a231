import type { FastifyInstance } from 'fastify';
import { workflowOperations } from '../../contract/workflows.ts';
import { addRoute } from '../http/route.ts';
import { storedFlowOf } from '../workflows/records.ts';

/**
 * Workflow CRUD: the operations Simplex's API does not have, which the dashboard needs; and the
 * same workflows as Simplex's clients see them (search, metadata, the Python client's /workflow).
 * The work is in app.workflows.
 */
export async function workflowRoutes(app: FastifyInstance): Promise<void> {
  const { workflows } = app;

  addRoute(app, workflowOperations.listWorkflows, ({ query }) => workflows.list(query));

  addRoute(app, workflowOperations.createWorkflow, async ({ body }, req, reply) =>
    reply.status(201).send(await workflows.create(body, storedFlowOf(req.body))),
  );

  addRoute(app, workflowOperations.getWorkflow, ({ params }) => workflows.get(params.id));

  addRoute(app, workflowOperations.updateWorkflow, ({ params, body }, req) =>
    workflows.update(params.id, body, storedFlowOf(req.body)),
  );

  addRoute(app, workflowOperations.deleteWorkflow, async ({ params }, _req, reply) => {
    await workflows.delete(params.id);
    return reply.status(204).send();
  });

  addRoute(app, workflowOperations.searchWorkflows, async ({ query }) => {
    const found = await workflows.search({ name: query.workflow_name, metadata: query.metadata });
    return { succeeded: true as const, workflows: found, count: found.length };
  });

  addRoute(app, workflowOperations.updateWorkflowMetadata, async ({ body }) => {
    const workflow = await workflows.setMetadata(body.workflow_id, body.metadata);
    return {
      succeeded: true as const,
      message: 'Workflow metadata updated',
      workflow_id: workflow.id,
      metadata: workflow.metadata,
    };
  });

  addRoute(app, workflowOperations.simplexGetWorkflow, async ({ params }) => ({
    succeeded: true as const,
    workflow: await workflows.get(params.id),
  }));

  addRoute(app, workflowOperations.simplexCreateWorkflow, async ({ body }) => ({
    succeeded: true as const,
    message: 'Workflow created',
    workflow: await workflows.createFromSimplex(body),
  }));

  addRoute(app, workflowOperations.simplexUpdateWorkflow, async ({ params, body }) => ({
    succeeded: true as const,
    message: 'Workflow updated',
    workflow: await workflows.updateFromSimplex(params.id, body),
  }));
}
